// The primary's side of the event relay between `npm start`'s worker processes
// (server/session/worker-relay.ts has the contract): it keeps which workers follow which chat, tells
// every worker the followers of a chat when they change, and passes a worker's batches of events on
// to each chat's other followers (one message per receiving worker). A worker that exits is
// forgotten. Runs in start.ts (plain Node).
import type { Cluster, Worker } from "node:cluster";

import type { RelayedBatch, RelayMessage } from "../session/worker-relay.ts";

/** Which workers follow which chat. */
export class FollowerBook {
  private readonly followers = new Map<string, Set<number>>();

  /** Records a worker's follow or unfollow; whether the chat's followers changed. */
  set(sessionId: string, workerId: number, isFollowing: boolean): boolean {
    const workers = this.followers.get(sessionId) ?? new Set<number>();
    if (workers.has(workerId) === isFollowing) return false;
    if (isFollowing) workers.add(workerId);
    else workers.delete(workerId);
    if (workers.size > 0) this.followers.set(sessionId, workers);
    else this.followers.delete(sessionId);
    return true;
  }

  /** The workers following the chat. */
  of(sessionId: string): number[] {
    return [...(this.followers.get(sessionId) ?? [])];
  }

  /** Forgets a worker; the chats whose followers changed. */
  drop(workerId: number): string[] {
    const changed: string[] = [];
    for (const [sessionId, workers] of this.followers) if (workers.has(workerId)) changed.push(sessionId);
    for (const sessionId of changed) this.set(sessionId, workerId, false);
    return changed;
  }
}

function sendTo(worker: Worker | undefined, message: RelayMessage): void {
  if (!worker?.isConnected()) return;
  try {
    worker.send(message, undefined, () => undefined); // a worker stopping may have closed its channel
  } catch {
    // Dropped: the relay only saves the worker a read of the log.
  }
}

/** Relays between the cluster's workers until the primary exits. */
export function relayBetweenWorkers(primary: Cluster): void {
  const book = new FollowerBook();
  const tellFollowers = (sessionId: string) => {
    const message: RelayMessage = { patchbay: "followers", sessionId, workerIds: book.of(sessionId) };
    for (const worker of Object.values(primary.workers ?? {})) sendTo(worker, message);
  };
  primary.on("message", (worker: Worker, message: unknown) => {
    if (typeof message !== "object" || message === null || !("patchbay" in message)) return;
    const relayed = message as RelayMessage;
    if (relayed.patchbay === "follow") {
      if (book.set(relayed.sessionId, worker.id, relayed.isFollowing)) tellFollowers(relayed.sessionId);
    } else if (relayed.patchbay === "events") {
      const byWorker = new Map<number, RelayedBatch[]>();
      for (const batch of relayed.batches)
        for (const id of book.of(batch.sessionId)) {
          if (id === worker.id) continue;
          const batches = byWorker.get(id);
          if (batches) batches.push(batch);
          else byWorker.set(id, [batch]);
        }
      for (const [id, batches] of byWorker) sendTo(primary.workers?.[id], { patchbay: "events", batches });
    }
  });
  primary.on("exit", (worker: Worker) => {
    for (const sessionId of book.drop(worker.id)) tellFollowers(sessionId);
  });
}
