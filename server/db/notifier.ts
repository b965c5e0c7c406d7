// Wake-ups between app instances. `notify(channel, payload)` reaches every subscriber in this
// process at once and, through Postgres NOTIFY/LISTEN, every other instance on the same database.
// Notifications only say "look again": the database stays the source of truth, and waiters also
// wake on a timeout, so a lost notification (or a database without LISTEN) costs latency, not data.
// `notifyOthers` is the batched form for the streaming hot path: Postgres serialises the commits of
// notifying transactions (one global lock, held through the WAL flush), so one NOTIFY per statement
// caps the whole database at a few thousand writes a second; instead the payloads queued while one
// NOTIFY statement is in flight go out together in the next (each after its rows have committed).
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";

import pg from "pg";

import { poolOf, type Db } from "./client.ts";
import { runStatement, statement } from "./statements.ts";

export const CHANNELS = {
  sessionEvents: "patchbay_session_events",
  turnControl: "patchbay_turn_control",
  toolApproval: "patchbay_tool_approval",
} as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** Process-wide state on globalThis: Next.js may load this module once per route bundle. */
const globalForNotify = globalThis as unknown as {
  patchbayNotify?: { emitter: EventEmitter; tag: string; outboxes: WeakMap<pg.Pool, Outbox> };
};
const shared = (globalForNotify.patchbayNotify ??= {
  emitter: new EventEmitter().setMaxListeners(0),
  tag: randomUUID().slice(0, 8),
  outboxes: new WeakMap(),
});
const emitter = shared.emitter;

/** Tags this process's NOTIFY payloads so its own LISTEN connection does not wake it twice. */
const PROCESS_TAG = shared.tag;

/** The payload to send with pg_notify: `<process tag>|<payload>`. */
export function taggedPayload(payload: string): string {
  return `${PROCESS_TAG}|${payload}`;
}

function onDatabaseNotification(message: pg.Notification): void {
  const raw = message.payload ?? "";
  const separator = raw.indexOf("|");
  if (separator === -1) return void emitter.emit(message.channel, raw);
  if (raw.slice(0, separator) === PROCESS_TAG) return; // already delivered in-process
  emitter.emit(message.channel, raw.slice(separator + 1));
}

type ListenerState = { client: pg.Client; url: string } | undefined;
const globalForNotifier = globalThis as unknown as {
  patchbayListener?: Promise<ListenerState>;
  patchbayListening?: boolean;
};

/** Whether this process's LISTEN connection is up: other instances' notifications reach it. */
export function isListening(): boolean {
  return globalForNotifier.patchbayListening === true;
}

/** Starts the one LISTEN connection of this process (idempotent). Failures degrade to polling. */
export function startListening(url: string): Promise<ListenerState> {
  globalForNotifier.patchbayListener ??= (async () => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      client.on("notification", onDatabaseNotification);
      client.on("error", (error) => {
        console.warn(`[patchbay] LISTEN connection lost (${error.message}); falling back to polling`);
        globalForNotifier.patchbayListener = undefined;
        globalForNotifier.patchbayListening = false;
      });
      for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
      globalForNotifier.patchbayListening = true;
      return { client, url };
    } catch (error) {
      console.warn(`[patchbay] LISTEN unavailable (${(error as Error).message}); waiting by polling`);
      await client.end().catch(() => undefined);
      return undefined;
    }
  })();
  return globalForNotifier.patchbayListener;
}

export async function stopListening(): Promise<void> {
  const state = await globalForNotifier.patchbayListener;
  globalForNotifier.patchbayListener = undefined;
  globalForNotifier.patchbayListening = false;
  await state?.client.end().catch(() => undefined);
}

/** Tells this process now, and other instances through the database. */
export async function notify(db: Db, channel: Channel, payload: string): Promise<void> {
  emitter.emit(channel, payload);
  await poolOf(db)
    .query("SELECT pg_notify($1, $2)", [channel, taggedPayload(payload)])
    .catch(() => undefined);
}

type Outbox = { queued: Map<Channel, Set<string>>; isSending: boolean };
const outboxes = shared.outboxes;

/**
 * Tells other instances (not this process) through the database, batched: sent at once when no
 * NOTIFY of this pool is in flight, else with the next one. Call it after the change committed.
 */
export function notifyOthers(pool: pg.Pool, channel: Channel, payload: string): void {
  let outbox = outboxes.get(pool);
  if (!outbox) outboxes.set(pool, (outbox = { queued: new Map(), isSending: false }));
  const payloads = outbox.queued.get(channel) ?? new Set<string>();
  outbox.queued.set(channel, payloads.add(taggedPayload(payload)));
  if (!outbox.isSending) void sendQueued(pool, outbox);
}

const NOTIFY_ALL_SQL = statement(
  "notify_all",
  "SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)",
);

async function sendQueued(pool: pg.Pool, outbox: Outbox): Promise<void> {
  outbox.isSending = true;
  try {
    while (outbox.queued.size > 0 && !pool.ending) {
      const batch = [...outbox.queued].flatMap(([channel, payloads]) => [...payloads].map((p) => [channel, p]));
      outbox.queued.clear();
      const [channels, payloads] = [batch.map(([channel]) => channel), batch.map(([, payload]) => payload)];
      // Waiters poll as well: a lost notification costs latency, not data.
      await runStatement(pool, NOTIFY_ALL_SQL, [channels, payloads]).catch(() => undefined);
    }
  } finally {
    outbox.isSending = false;
  }
}

/** Calls `listener` for every notification on `channel`; returns the unsubscribe function. */
export function onNotification(channel: Channel, listener: (payload: string) => void): () => void {
  emitter.on(channel, listener);
  return () => emitter.off(channel, listener);
}

/** Resolves on the next notification on `channel` whose payload is `payload`, the timeout, or abort. */
export function waitForNotification(
  channel: Channel,
  payload: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const unsubscribe = onNotification(channel, (received) => received === payload && done());
    const timer = setTimeout(done, timeoutMs);
    signal?.addEventListener("abort", done, { once: true });
  });
}
