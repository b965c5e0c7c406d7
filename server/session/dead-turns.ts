// Ending the turns of instances that died: marked `interrupted` with their partial output kept, the
// chat freed, subscribers told (finishTurn). Dead means the lease lapsed, or, when instances hold
// instance locks (instance-lock.ts), the owner's lock is free. A turn this instance runs is never
// touched, and a turn that ended meanwhile is only released from its chat.
import type { Db } from "../db/client.ts";
import { findLapsedTurns, findOrphanedTurns } from "./lease-store.ts";
import { finishTurn, releaseSession } from "./turn-end.ts";

export const INTERRUPTED_MESSAGE =
  "The server stopped while this answer was being written; the partial answer is kept.";

type TurnRef = { id: string; sessionId: string };

/** Marks `turns` interrupted, except those running here; how many were not running here. */
export async function interruptTurns(
  db: Db,
  turns: TurnRef[],
  isRunningHere: (id: string) => boolean,
): Promise<number> {
  let count = 0;
  for (const turn of turns) {
    if (isRunningHere(turn.id)) continue;
    const error = { code: "interrupted", message: INTERRUPTED_MESSAGE };
    const ended = await finishTurn(db, turn, { status: "interrupted", error });
    if (!ended) await releaseSession(db, turn.sessionId, turn.id);
    count += 1;
  }
  return count;
}

/** The chat's streaming turns whose lease lapsed or (with locks) whose owner's lock is free. */
export async function findDeadTurnsIn(
  db: Db,
  sessionId: string,
  self: { instanceId: string; hasInstanceLock: boolean },
): Promise<TurnRef[]> {
  const [lapsed, orphaned] = await Promise.all([
    findLapsedTurns(db, new Date(), sessionId),
    self.hasInstanceLock ? findOrphanedTurns(db, { exceptOwner: self.instanceId, sessionId }) : [],
  ]);
  return [...lapsed, ...orphaned];
}
