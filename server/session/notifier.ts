// Wake-ups between app instances. `notify(channel, payload)` reaches every subscriber in this
// process at once and, through Postgres NOTIFY/LISTEN, every other instance on the same database.
// Notifications only say "look again": the database stays the source of truth, and waiters also
// wake on a timeout, so a lost notification (or a database without LISTEN) costs latency, not data.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";

import pg from "pg";

import type { Db } from "../db.ts";

export const CHANNELS = {
  sessionEvents: "patchbay_session_events",
  turnControl: "patchbay_turn_control",
  toolApproval: "patchbay_tool_approval",
} as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

const emitter = new EventEmitter();
emitter.setMaxListeners(0);

/** Tags this process's NOTIFY payloads so its own LISTEN connection does not wake it twice. */
const PROCESS_TAG = randomUUID().slice(0, 8);

/** The payload to send with pg_notify: `<process tag>|<payload>`. */
export function taggedPayload(payload: string): string {
  return `${PROCESS_TAG}|${payload}`;
}

/** Wakes this process's subscribers (the database part of a notify is done by the caller). */
export function emitLocal(channel: Channel, payload: string): void {
  emitter.emit(channel, payload);
}

function onDatabaseNotification(message: pg.Notification): void {
  const raw = message.payload ?? "";
  const separator = raw.indexOf("|");
  if (separator === -1) return void emitter.emit(message.channel, raw);
  if (raw.slice(0, separator) === PROCESS_TAG) return; // already delivered in-process
  emitter.emit(message.channel, raw.slice(separator + 1));
}

type ListenerState = { client: pg.Client; url: string } | undefined;
const globalForNotifier = globalThis as unknown as { patchbayListener?: Promise<ListenerState> };

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
      });
      for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
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
  await state?.client.end().catch(() => undefined);
}

/** Tells this process now, and other instances through the database. */
export async function notify(db: Db, channel: Channel, payload: string): Promise<void> {
  emitter.emit(channel, payload);
  await db.$executeRaw`SELECT pg_notify(${channel}, ${taggedPayload(payload)})`.catch(() => undefined);
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
