// Tool-call limits: at most `perResponse` calls of one model response run (the rest are skipped),
// and at most `perMinute` calls run per chat in any 60 seconds, counted from the tool results stored
// in Postgres, so the window holds across turns, restarts and app instances. A call over a limit is
// not run: it gets an error result that tells the model which limit it hit, and the turn goes on.
import type { Db } from "../db/client.ts";
import { toolErrorResult, type ToolOutcome } from "../core/tool-source.ts";

export type ToolCallLimits = { perResponse: number; perMinute: number };
export type LimitName = "tool_calls_per_response" | "tool_calls_per_minute" | "steps";
export type CallLimit = Exclude<LimitName, "steps">;
export type CallPlan = "run" | CallLimit;

const WINDOW_MS = 60_000;
/** Results of calls that never ran; they do not count against the per-minute limit. */
const NOT_RUN_CODES = ["too_many_calls", "rate_limited", "denied"];

/** Decides, in call order, which of one response's calls run and which limit stops the others. */
export function planToolCalls(callCount: number, limits: ToolCallLimits, recentCalls: number): CallPlan[] {
  let budget = Math.max(0, limits.perMinute - recentCalls);
  return Array.from({ length: callCount }, (_, index): CallPlan => {
    if (index >= limits.perResponse) return "tool_calls_per_response";
    if (budget === 0) return "tool_calls_per_minute";
    budget -= 1;
    return "run";
  });
}

/** What the model (as the call's result) and the user (in the `limit.reached` event) are told. */
export function limitMessage(limit: LimitName, max: number): string {
  switch (limit) {
    case "tool_calls_per_response":
      return `Too many tool calls in one response: at most ${max} run per response, so this call was skipped. Call it again in your next response if you still need it.`;
    case "tool_calls_per_minute":
      return `rate limited: ${max} calls per minute in this chat. This call was not run; wait before calling tools again, or answer without them.`;
    case "steps":
      return `Stopped after ${max} model requests (the step limit) while the model was still calling tools; it was asked to answer with what it had.`;
  }
}

export function limitResult(limit: CallLimit, max: number): ToolOutcome {
  return toolErrorResult(
    limit === "tool_calls_per_response" ? "too_many_calls" : "rate_limited",
    limitMessage(limit, max),
  );
}

/**
 * Tool calls of this chat whose results were stored in the last minute: calls that never ran, and
 * the copies apply now makes of a superseded turn's rounds (kept-rounds.ts), excluded.
 */
export async function countRecentToolCalls(db: Db, sessionId: string, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count
    FROM "Message" AS m, jsonb_array_elements(m.parts) AS part
    WHERE m."sessionId" = ${sessionId} AND m.role = 'tool' AND m."createdAt" >= ${since}
      AND m.metadata->>'keptFrom' IS NULL
      AND NOT (part->>'isError' = 'true' AND coalesce(part->'output'->'error'->>'code', '') = ANY(${NOT_RUN_CODES}))`;
  return row?.count ?? 0;
}
