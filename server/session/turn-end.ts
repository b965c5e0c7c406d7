// Turn rows and the session's single "active turn" slot. Claiming the slot, ending a turn and
// releasing the slot are conditional updates, so two instances (or two clicks) racing on one
// session resolve to exactly one winner, and a turn's final status is written exactly once. Ending a
// turn expires the tool approvals and followup questions it was still waiting for.
import type { Db } from "../db/client.ts";
import type { TransactionClient } from "../generated/prisma/internal/prismaNamespace.ts";
import type { TurnStatus } from "../generated/prisma/enums.ts";
import { expirePendingApprovals } from "../policy/approvals.ts";
import { expirePendingQuestions } from "../policy/followup-questions.ts";
import { finishTurnRows } from "./turn-sql.ts";

export type DbOrTx = Db | TransactionClient;
export type FinalStatus = Exclude<TurnStatus, "streaming">;
export type TurnEnd = {
  status: FinalStatus;
  error?: { code: string; message: string } | null;
  usage?: { inputTokens: number; outputTokens: number };
};

export const turnSelect = {
  id: true,
  sessionId: true,
  userMessageId: true,
  historySeq: true,
  status: true,
  provider: true,
  model: true,
  providerAccountId: true,
  restartOfId: true,
  cancelRequested: true,
  leaseOwner: true,
} as const;

/** Ends a streaming turn; false when it had already ended (someone else wrote its status). */
export async function endTurn(db: DbOrTx, turnId: string, end: TurnEnd): Promise<boolean> {
  const { count } = await db.turn.updateMany({
    where: { id: turnId, status: "streaming" },
    data: {
      status: end.status,
      endedAt: new Date(),
      leaseOwner: null,
      leaseExpiresAt: null,
      ...(end.error ? { error: end.error } : {}),
      ...(end.usage ? { inputTokens: end.usage.inputTokens, outputTokens: end.usage.outputTokens } : {}),
    },
  });
  if (count === 1) {
    await expirePendingApprovals(db, turnId);
    await expirePendingQuestions(db, turnId);
  }
  return count === 1;
}

/** Frees the session's slot if (and only if) it is still held by this turn. */
export async function releaseSession(db: DbOrTx, sessionId: string, turnId: string): Promise<void> {
  await db.chatSession.updateMany({ where: { id: sessionId, activeTurnId: turnId }, data: { activeTurnId: null } });
}

/**
 * Ends the turn, frees the session and tells subscribers, in ONE statement (turn-sql.ts,
 * finishTurnRows: the same writes as endTurn + releaseSession + the `turn.finished` event, each only
 * if the turn was still streaming). False when it had already ended.
 */
export async function finishTurn(db: Db, turn: { id: string; sessionId: string }, end: TurnEnd): Promise<boolean> {
  return finishTurnRows(db, turn, end);
}
