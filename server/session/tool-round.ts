// One tool round of a turn: the calls of one model response, in order, answered by one tool message.
// Each call is first held to the limits (calls per response, calls per minute per chat); a call of an
// `ask` tool then waits for the user's approval (cancel and restart still end the turn while it
// waits); then it runs through the tool source. A call that does not run still gets a result the
// model reads (`too_many_calls`, `rate_limited`, `denied`, `unknown_tool`), and the turn goes on.
// The talk-back built-ins run here too (talk-back.ts): a followup question waits for the user's
// answer, and attempt_completion makes the round return the turn's final answer as its completion.
import type { Db } from "../db/client.ts";
import { requestApproval, waitForDecision } from "../policy/approvals.ts";
import { brandOf, hasBrand } from "../core/brand.ts";
import {
  countRecentToolCalls,
  limitMessage,
  limitResult,
  planToolCalls,
  type CallLimit,
  type CallPlan,
  type ToolCallLimits,
} from "../policy/limits.ts";
import type { ToolCallPart, ToolResultPart } from "../core/canonical.ts";
import { appendEvent } from "./event-log.ts";
import { type SessionEventType } from "./event-types.ts";
import {
  runToolCall,
  toolErrorResult,
  type SourceSnapshot,
  type SourceTool,
  type ToolOutcome,
  type ToolProgress,
  type ToolSource,
} from "../core/tool-source.ts";
import { isTalkBackTool, runTalkBackCall, type TalkBackOutcome } from "./talk-back.ts";
import { appendTurnToolMessage } from "./transcript.ts";
import { PERSONA_CONNECTOR } from "../mcp/connector-names.ts";

/** The turn must stop here without writing anything more: it was aborted, or it ended elsewhere. */
const stepAbortedBrand = brandOf("StepAborted");

export class StepAborted extends Error {
  readonly [stepAbortedBrand] = true;
}

export function isStepAborted(value: unknown): value is StepAborted {
  return hasBrand(value, stepAbortedBrand);
}

/**
 * Runs a call of a persona offered as a sub-agent (`persona.<slug>`, sub-agent-run.ts); absent
 * inside a sub-agent, whose tools never include one (depth 1).
 */
export type SubAgentRunner = {
  run(call: ToolCallPart, tool: SourceTool & { toolName?: string }, signal: AbortSignal): Promise<ToolOutcome>;
};

export type ToolRoundDeps = {
  db: Db;
  tools: ToolSource;
  toolTimeoutMs: number;
  limits: ToolCallLimits;
  subAgents?: SubAgentRunner;
};
type TurnRef = { id: string; sessionId: string };
/** `completion`: the final answer an attempt_completion call gave; the turn ends with it. */
export type ToolRoundResult = { completion: string | null };

export async function runToolRound(
  turn: TurnRef,
  deps: ToolRoundDeps,
  calls: ToolCallPart[],
  snapshot: SourceSnapshot,
  signal: AbortSignal,
): Promise<ToolRoundResult> {
  const plan = planToolCalls(calls.length, deps.limits, await countRecentToolCalls(deps.db, turn.sessionId));
  await reportLimits(turn, deps, calls, plan);
  const results: ToolResultPart[] = [];
  let completion: string | null = null;
  for (const [index, call] of calls.entries()) {
    if (signal.aborted) throw new StepAborted();
    const started = Date.now();
    const verdict = plan[index]!;
    const outcome: TalkBackOutcome =
      verdict === "run"
        ? await runOneCall(turn, deps, snapshot, call, signal)
        : limitResult(verdict, maxOf(verdict, deps.limits));
    if (signal.aborted) throw new StepAborted();
    if (outcome.completion !== undefined) completion ??= outcome.completion;
    const durationMs = Date.now() - started;
    const result: ToolResultPart = {
      type: "tool-result",
      callId: call.id,
      name: call.name,
      output: outcome.output,
      isError: outcome.isError,
      durationMs,
    };
    results.push(result);
    await emit(deps.db, turn, "tool.result", { result, durationMs });
  }
  const message = await appendTurnToolMessage(deps.db, turn, results);
  if (!message) throw new StepAborted(); // superseded or ended meanwhile: restart.ts settled the calls
  await emit(deps.db, turn, "message.created", { messageId: message.id, role: "tool" });
  return { completion };
}

function maxOf(limit: CallLimit, limits: ToolCallLimits): number {
  return limit === "tool_calls_per_response" ? limits.perResponse : limits.perMinute;
}

/** One `limit.reached` event per limit this round hits, naming the calls it stopped. */
async function reportLimits(turn: TurnRef, deps: ToolRoundDeps, calls: ToolCallPart[], plan: CallPlan[]) {
  for (const limit of ["tool_calls_per_response", "tool_calls_per_minute"] as const) {
    const callIds = calls.filter((_, index) => plan[index] === limit).map((call) => call.id);
    if (callIds.length === 0) continue;
    const max = maxOf(limit, deps.limits);
    await emit(deps.db, turn, "limit.reached", { limit, max, callIds, message: limitMessage(limit, max) });
  }
}

export async function runOneCall(
  turn: TurnRef,
  deps: ToolRoundDeps,
  snapshot: SourceSnapshot,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<TalkBackOutcome> {
  const tool = snapshot.tools.find((candidate) => candidate.canonicalName === call.name);
  if (!tool) return toolErrorResult("unknown_tool", `The tool ${call.name} is not available in this chat.`);
  if (isTalkBackTool(call.name)) {
    const outcome = await runTalkBackCall(turn, deps.db, call, signal);
    if (outcome === "aborted") throw new StepAborted();
    return outcome;
  }
  if (tool.policy === "ask" && !(await isApproved(turn, deps.db, call, signal)))
    return toolErrorResult("denied", "The user denied this tool call.");
  if (tool.connectorId === PERSONA_CONNECTOR)
    return deps.subAgents
      ? deps.subAgents.run(call, tool, signal)
      : toolErrorResult("unknown_tool", "A sub-agent cannot consult another sub-agent.");
  const progress = progressReporter(turn, deps.db, call.id);
  const outcome = await runToolCall(
    deps.tools,
    turn.sessionId,
    { canonicalName: call.name, args: call.args, revision: snapshot.revision, onProgress: progress.report },
    { signal, timeoutMs: deps.toolTimeoutMs },
  );
  await progress.drain();
  return outcome;
}

const PROGRESS_INTERVAL_MS = 250;

/**
 * Publishes a long tool's progress as `tool.progress` events, at most one per interval, one after
 * another (so they keep the event log's order); `drain()` publishes the last notification if the
 * interval held it back, and waits for it, before the result.
 */
function progressReporter(turn: TurnRef, db: Db, callId: string) {
  let sentAt = 0;
  let chain: Promise<unknown> = Promise.resolve();
  /** The latest progress the interval held back; drain() publishes it, so the card ends on the last one. */
  let heldBack: ToolProgress | null = null;
  const publish = (progress: ToolProgress) => {
    chain = chain.then(() => emit(db, turn, "tool.progress", { callId, ...progress })).catch(() => undefined);
  };
  const report = (progress: ToolProgress) => {
    if (Date.now() - sentAt < PROGRESS_INTERVAL_MS) {
      heldBack = progress;
      return;
    }
    heldBack = null;
    sentAt = Date.now();
    publish(progress);
  };
  const drain = () => {
    if (heldBack) publish(heldBack);
    heldBack = null;
    return chain;
  };
  return { report, drain };
}

/** Asks the user (a pending approval plus a `tool.approval` event) and waits for the decision. */
async function isApproved(turn: TurnRef, db: Db, call: ToolCallPart, signal: AbortSignal): Promise<boolean> {
  const approvalId = await requestApproval(db, {
    sessionId: turn.sessionId,
    turnId: turn.id,
    callId: call.id,
    toolName: call.name,
    args: call.args,
  });
  await emit(db, turn, "tool.approval", { approvalId, callId: call.id, name: call.name, args: call.args });
  const status = await waitForDecision(db, approvalId, signal).catch((error: unknown) => {
    throw signal.aborted ? new StepAborted() : error;
  });
  if (status === "expired" || signal.aborted) throw new StepAborted(); // expired: the turn ended elsewhere
  await emit(db, turn, "tool.approval.decided", { approvalId, callId: call.id, name: call.name, status });
  return status === "approved";
}

function emit(db: Db, turn: TurnRef, type: SessionEventType, data: Record<string, unknown>) {
  return appendEvent(db, { sessionId: turn.sessionId, turnId: turn.id, type, data });
}
