// Per-user limits on what users spend of the operator's keys (the server-wide providers), each off
// when unset:
// - USER_REQUESTS_PER_MINUTE: chat requests (a message sent, edited, regenerated or applied anew)
//   a user may start on a server key in any 60 s; checked when a turn starts, so a turn's own tool
//   rounds never trip it halfway;
// - USER_TOKENS_PER_DAY: input + output tokens per UTC day; checked when a turn starts and before
//   every model request of it (model-resolver.ts), so a turn stops cleanly once the allowance is gone.
// Every model request on a server key is recorded per user, provider and model (UsageRequest: one
// row per request, its tokens filled in when its stream ends). The rows belong to the user, not to a
// chat: deleting chats gives no allowance back. A user's own accounts (API keys, endpoints,
// subscriptions) are theirs to spend: neither limited nor recorded here.
import { randomUUID } from "node:crypto";

import { poolOf, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";

export type UsageLimits = { requestsPerMinute: number | null; tokensPerDay: number | null };

export type ModelUsage = { provider: string; model: string; requests: number; tokens: number };

/** What the user sees: today's use on the server's keys, the limits, and what is left. */
export type UsageSummary = {
  limits: UsageLimits;
  today: { requests: number; tokens: number; byModel: ModelUsage[] };
  requestsLastMinute: number;
  /** Null when there is no such limit. */
  tokensLeft: number | null;
  requestsLeftThisMinute: number | null;
  /** When today's token allowance starts again (the next 00:00 UTC). */
  resetsAt: Date;
};

const MINUTE_MS = 60_000;

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function formatDuration(ms: number): string {
  const minutes = Math.ceil(ms / MINUTE_MS);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Turns of this user's chats on a server key. */
function serverKeyTurns(userId: string) {
  return { providerAccountId: null, session: { ownerId: userId } };
}

export async function readUsage(db: Db, userId: string, limits: UsageLimits, now = new Date()): Promise<UsageSummary> {
  const dayStart = startOfUtcDay(now);
  const [rows, requestsLastMinute] = await Promise.all([
    db.usageRequest.groupBy({
      by: ["provider", "model"],
      where: { userId, startedAt: { gte: dayStart } },
      _count: { _all: true },
      _sum: { inputTokens: true, outputTokens: true },
    }),
    db.turn.count({ where: { ...serverKeyTurns(userId), startedAt: { gt: new Date(now.getTime() - MINUTE_MS) } } }),
  ]);
  const byModel = rows
    .map((row) => ({
      provider: row.provider,
      model: row.model,
      requests: row._count._all,
      tokens: (row._sum.inputTokens ?? 0) + (row._sum.outputTokens ?? 0),
    }))
    .sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model));
  const tokens = byModel.reduce((sum, row) => sum + row.tokens, 0);
  const requests = byModel.reduce((sum, row) => sum + row.requests, 0);
  return {
    limits,
    today: { requests, tokens, byModel },
    requestsLastMinute,
    tokensLeft: limits.tokensPerDay === null ? null : Math.max(0, limits.tokensPerDay - tokens),
    requestsLeftThisMinute:
      limits.requestsPerMinute === null ? null : Math.max(0, limits.requestsPerMinute - requestsLastMinute),
    resetsAt: new Date(dayStart.getTime() + 24 * 60 * MINUTE_MS),
  };
}

/**
 * Throws rate_limit:provider, in words, when the user may not start another request on a server key
 * (`startsTurn`: a new chat request, which the per-minute limit counts) or send its next model request.
 */
export async function assertWithinLimits(
  db: Db,
  userId: string,
  limits: UsageLimits,
  { startsTurn, now = new Date() }: { startsTurn: boolean; now?: Date },
): Promise<void> {
  if (limits.tokensPerDay === null && (limits.requestsPerMinute === null || !startsTurn)) return;
  const usage = await readUsage(db, userId, limits, now);
  if (usage.tokensLeft === 0) {
    throw new AppError(
      "rate_limit:provider",
      `You have used today's ${limits.tokensPerDay!.toLocaleString("en-US")} tokens on this server's keys. The allowance starts again at 00:00 UTC (in ${formatDuration(usage.resetsAt.getTime() - now.getTime())}); until then, pick a model from your own account (Settings → Providers).`,
    );
  }
  if (startsTurn && usage.requestsLeftThisMinute === 0) {
    const oldest = await db.turn.findFirst({
      where: { ...serverKeyTurns(userId), startedAt: { gt: new Date(now.getTime() - MINUTE_MS) } },
      orderBy: { startedAt: "asc" },
      select: { startedAt: true },
    });
    const waitSeconds = Math.max(
      1,
      Math.ceil(((oldest?.startedAt.getTime() ?? now.getTime()) + MINUTE_MS - now.getTime()) / 1000),
    );
    throw new AppError(
      "rate_limit:provider",
      `You have sent ${limits.requestsPerMinute} requests to this server's models in the last minute, the most allowed per person. Try again in ${waitSeconds} s.`,
    );
  }
}

/**
 * Records the start of one model request on a server key, for the owner of chat `sessionId` (read
 * in the same statement: a request's hot path makes one round trip here, in raw SQL); the answer
 * is its row id, or null when the chat is gone (nothing recorded).
 */
export async function recordRequestStart(
  db: Db,
  request: { sessionId: string; provider: string; model: string },
): Promise<string | null> {
  const { rows } = await poolOf(db).query<{ id: string }>(
    `INSERT INTO "UsageRequest" ("id", "userId", "provider", "model", "startedAt")
    SELECT $1::text, s."ownerId", $3::text, $4::text, now() AT TIME ZONE 'UTC'
    FROM "ChatSession" s WHERE s."id" = $2::text
    RETURNING "id"`,
    [randomUUID(), request.sessionId, request.provider, request.model],
  );
  return rows[0]?.id ?? null;
}

/** Adds the request's token counts once its stream has ended. */
export async function recordRequestTokens(db: Db, id: string, inputTokens: number, outputTokens: number) {
  await poolOf(db).query(`UPDATE "UsageRequest" SET "inputTokens" = $2, "outputTokens" = $3 WHERE "id" = $1`, [
    id,
    inputTokens,
    outputTokens,
  ]);
}
