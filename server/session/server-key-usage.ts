// Where a turn meets the operator's limits: `authorizeChoice` runs before a turn starts (the chat
// router, and the session manager for stored or default choices) — the model must be offered
// (turn-models.ts) and, on a server key, the user within USER_REQUESTS_PER_MINUTE and
// USER_TOKENS_PER_DAY; `serverKeyUsage` is the model resolver's hook before every model request on
// a server key — the day's tokens checked again, the request recorded for the user and model, and
// its tokens added when its stream ends (server/policy/usage-limits.ts holds the rules).
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  assertWithinLimits,
  recordRequestStart,
  recordRequestTokens,
  type UsageLimits,
} from "../policy/usage-limits.ts";
import type { ModelTarget } from "../providers/model-resolver.ts";
import type { UsageSink } from "../providers/usage-recording.ts";
import { assertOfferedModel, type ServerModels, type TurnModel } from "./turn-models.ts";

export type ChoiceRules = { serverModels: ServerModels; usageLimits: UsageLimits };

/** A turn may start on `model`: it is offered, and a server key's limits leave room for it. */
export async function authorizeChoice(db: Db, ownerId: string, model: TurnModel, rules: ChoiceRules): Promise<void> {
  await assertOfferedModel(db, ownerId, model, rules.serverModels);
  if (model.accountId === null) await assertWithinLimits(db, ownerId, rules.usageLimits, { startsTurn: true });
}

/**
 * The resolver's hook for a request on a server key: checks the day's tokens (only when that limit
 * is set: it reads the chat's owner first), records the request. The request does not wait for its
 * usage row: it is written while the model thinks, and the tokens are added to it once it exists
 * (a failed write is logged by the sink's caller).
 */
export function serverKeyUsage(db: Db, limits: UsageLimits): (target: ModelTarget) => Promise<UsageSink> {
  return async (target) => {
    if (limits.tokensPerDay !== null) {
      const session = await db.chatSession.findUnique({ where: { id: target.sessionId }, select: { ownerId: true } });
      if (!session) throw new AppError("not_found:session");
      await assertWithinLimits(db, session.ownerId, limits, { startsTurn: false });
    }
    const recorded = recordRequestStart(db, target);
    recorded.catch(() => undefined); // seen again, and reported, when the sink awaits it
    return async (usage) => {
      const id = await recorded;
      if (id !== null) await recordRequestTokens(db, id, usage.inputTokens, usage.outputTokens);
    };
  };
}
