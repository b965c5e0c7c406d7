// Superseding a turn for a restart, in one transaction: only the chat's latest turn, only if the
// session's active slot is free or held by it (then the new turn takes the slot); the old turn
// becomes `superseded` (the owning instance stops it on the notification), its pending approvals
// expire, the new turn's row is created, and the old turn is settled and, for apply now, cut back to
// its last consistent point (kept-rounds.ts, cut-back.ts). The old turn's row is updated FIRST: that
// row lock makes a tool message the old run is about to append wait for this transaction, and then
// not be written (transcript.ts, appendTurnToolMessage), so the cut sees every stored round.
// After the commit, the old turn's events (its settled calls, then `turn.finished`) are appended;
// the new turn's events (its kept copies) are returned for the caller to append after its
// `turn.started`.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { expirePendingApprovals } from "../policy/approvals.ts";
import { expirePendingQuestions } from "../policy/followup-questions.ts";
import { appendEvents } from "./event-log.ts";
import { settleSupersededTurn, type SettledTurn } from "./kept-rounds.ts";

export type SupersededTurn = { id: string; sessionId: string; status: string };

export type RestartWrite = {
  old: SupersededTurn;
  /** The new turn's row (its id, lease, model; `restartOfId` is set here). */
  newTurn: Prisma.TurnUncheckedCreateInput & { id: string };
  /** Apply now: the restarted turn continues from the old turn's complete tool rounds. */
  keepFinishedRounds: boolean;
};

export async function supersedeForRestart(db: Db, write: RestartWrite): Promise<SettledTurn> {
  const { old, newTurn } = write;
  const settled = await db.$transaction(async (tx) => {
    const latest = await tx.turn.findFirst({ where: { sessionId: old.sessionId }, orderBy: { startedAt: "desc" } });
    if (latest?.id !== old.id) throw new AppError("conflict:turn", "Only the latest turn of a chat can be restarted.");
    const isStreaming = latest.status === "streaming";
    await tx.turn.update({
      where: { id: old.id },
      data: {
        status: "superseded",
        cancelRequested: isStreaming ? "superseded" : null,
        endedAt: isStreaming ? new Date() : undefined,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    });
    const swapped = await tx.chatSession.updateMany({
      where: { id: old.sessionId, OR: [{ activeTurnId: old.id }, { activeTurnId: null }] },
      data: { activeTurnId: newTurn.id },
    });
    if (swapped.count === 0) throw new AppError("conflict:turn");
    await expirePendingApprovals(tx, old.id);
    await expirePendingQuestions(tx, old.id);
    await tx.turn.create({ data: { ...newTurn, restartOfId: old.id } });
    return settleSupersededTurn(tx, old, write.keepFinishedRounds ? newTurn.id : null);
  });
  const finished = { turnId: old.id, status: "superseded", supersededBy: newTurn.id };
  await appendEvents(db, {
    sessionId: old.sessionId,
    turnId: old.id,
    events: [...settled.oldEvents, { type: "turn.finished", data: finished }],
  });
  return settled;
}
