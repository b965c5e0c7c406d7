// Events between the worker processes of one `npm start` (PATCHBAY_WORKERS > 1, node:cluster).
// The primary hands connections out round-robin, so a chat's event stream and the send that starts
// its answer often land on different workers. Without this, the follower's worker learnt of each
// delta from the turn's worker only after the delta tick, its commit, the NOTIFY and a read of the
// log (measured: a one-stream gap p99 about 10 ms above the provider's). Here each worker tells
// the primary (server/cli/worker-relay-primary.ts) which chats it follows; a worker that appends or
// publishes events of a chat another worker follows sends them to it through the primary at once,
// and they reach its subscribers as its own events do (event-log.ts, onEventsAppended).
// Contracts:
//  - only an optimisation: the log and NOTIFY stay as they are, so a lost or late message costs
//    latency, never an event; a subscriber takes a relayed batch only when it follows on from its
//    cursor (previousId), else it reads the log, and it skips the read a NOTIFY asks for only when it
//    already has the NOTIFY's last event id (event-feed.ts);
//  - outside a cluster worker (one process, `next start`, tests) every function here does nothing;
//  - messages are plain JSON (node:cluster's default serialisation): an event's createdAt travels as
//    an ISO string and is a Date again on arrival.
import cluster from "node:cluster";

import type { AppendedEvents, SessionEventDto } from "./event-types.ts";

/** Worker → primary: this worker follows the chat now, or no longer. */
export type FollowMessage = { patchbay: "follow"; sessionId: string; isFollowing: boolean };
/** Primary → worker: the workers following the chat now (the receiver among them or not). */
export type FollowersMessage = { patchbay: "followers"; sessionId: string; workerIds: number[] };
/** One chat's batch of events, as onEventsAppended gives them. */
export type RelayedBatch = { sessionId: string; appended: AppendedEvents };
/**
 * Worker → primary → each chat's other followers: the batches of one turn of the sender's event
 * loop, in order (one message for many streams, not one per delta).
 */
export type EventsMessage = { patchbay: "events"; batches: RelayedBatch[] };
export type RelayMessage = FollowMessage | FollowersMessage | EventsMessage;

type RelayState = {
  /** Subscribers of each chat in this worker. */
  following: Map<string, number>;
  /** Chats some other worker follows (from the primary's `followers` messages). */
  followedElsewhere: Set<string>;
  /** Delivers a relayed batch to this worker's subscribers (set by event-log.ts). */
  deliver: ((sessionId: string, appended: AppendedEvents) => void) | null;
  /** Batches to send once this turn of the event loop is over. */
  outbox: RelayedBatch[];
};

/** Process-wide (on globalThis: Next.js may load this module once per route bundle). */
const globalForRelay = globalThis as unknown as { patchbayWorkerRelay?: RelayState };

function isRelayMessage(message: unknown): message is RelayMessage {
  return typeof message === "object" && message !== null && "patchbay" in message;
}

function send(message: RelayMessage): void {
  if (!process.connected || !process.send) return;
  // The channel may close while a worker stops, and a message that cannot be serialised throws: the
  // message is an optimisation, so it is dropped (the followers read the log).
  try {
    process.send(message, undefined, undefined, () => undefined);
  } catch (error) {
    console.warn(`[patchbay] could not relay events to the other workers: ${(error as Error).message}`);
  }
}

function revive(appended: AppendedEvents): AppendedEvents {
  return {
    previousId: appended.previousId,
    events: appended.events.map((event): SessionEventDto => ({
      ...event,
      createdAt: new Date(event.createdAt as unknown as string),
    })),
  };
}

function state(): RelayState | null {
  if (!cluster.isWorker) return null;
  if (globalForRelay.patchbayWorkerRelay) return globalForRelay.patchbayWorkerRelay;
  const created: RelayState = { following: new Map(), followedElsewhere: new Set(), deliver: null, outbox: [] };
  globalForRelay.patchbayWorkerRelay = created;
  const self = cluster.worker?.id;
  process.on("message", (message: unknown) => {
    if (!isRelayMessage(message)) return; // Next.js's own messages, if any
    if (message.patchbay === "followers") {
      const isElsewhere = message.workerIds.some((id) => id !== self);
      if (isElsewhere) created.followedElsewhere.add(message.sessionId);
      else created.followedElsewhere.delete(message.sessionId);
    } else if (message.patchbay === "events") {
      for (const { sessionId, appended } of message.batches) created.deliver?.(sessionId, revive(appended));
    }
  });
  return created;
}

/** Sets how relayed batches reach this worker's subscribers (event-log.ts, once per process). */
export function onRelayedEvents(deliver: (sessionId: string, appended: AppendedEvents) => void): void {
  const relay = state();
  if (relay) relay.deliver ??= deliver;
}

/** Counts a subscriber of the chat in this worker; returns its removal. */
export function followInWorker(sessionId: string): () => void {
  const relay = state();
  if (!relay) return () => undefined;
  const count = relay.following.get(sessionId) ?? 0;
  relay.following.set(sessionId, count + 1);
  if (count === 0) send({ patchbay: "follow", sessionId, isFollowing: true });
  let isDone = false;
  return () => {
    if (isDone) return;
    isDone = true;
    const left = (relay.following.get(sessionId) ?? 1) - 1;
    if (left > 0) return void relay.following.set(sessionId, left);
    relay.following.delete(sessionId);
    send({ patchbay: "follow", sessionId, isFollowing: false });
  };
}

/** Sends a batch this worker appended or published to the other workers following the chat. */
export function relayToOtherWorkers(sessionId: string, appended: AppendedEvents): void {
  const relay = state();
  if (!relay?.followedElsewhere.has(sessionId)) return;
  if (relay.outbox.length === 0)
    setImmediate(() => {
      const batches = relay.outbox;
      relay.outbox = [];
      send({ patchbay: "events", batches });
    });
  relay.outbox.push({ sessionId, appended });
}
