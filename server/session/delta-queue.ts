// Storing streamed deltas: the statements behind the in-memory fan-out. Contracts:
//  - one statement per tick for ALL of this process's streaming messages (each message's latest
//    parts and its events, in queue order); at most one in flight per pool, on a connection held
//    while there is work, and at least DELTA_TICK_MS between the starts of two statements, so
//    Postgres sees a bounded number of write transactions per second per instance, not per stream;
//  - the pool is the client's streaming pool (streamPoolOf): deltas never wait behind request
//    queries for a connection, and request queries never wait behind deltas;
//  - events may come numbered (their ids reserved by the writer, event-ids.ts, and already published
//    to this process's subscribers) or not (ids from the sequence as they are inserted); after the
//    commit the stored events are delivered here (subscribers that have them skip them) and other
//    instances are NOTIFYed;
//  - a database outage loses no delta: while the database is unreachable (database-unavailable.ts)
//    the queued deltas stay queued, in order, and the statement is retried with backoff for up to
//    DELTA_OUTAGE_BUDGET_MS; only past that do their waiters see the error. A retry of a statement
//    that did commit (the connection broke before its answer) stores numbered events once: their
//    ids are taken already, so they are skipped (ON CONFLICT DO NOTHING), and the parts are the same.
import type pg from "pg";

import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { streamPoolOf, type Db, type SqlPool } from "../db/client.ts";
import { DELTA_OUTAGE_BUDGET_MS, deliverOn, type AppendedRow, type EventInput } from "./event-log.ts";
import { runStatement, statement } from "../db/statements.ts";

/** An event to store: numbered ones carry the id and time they were published with. */
export type DeltaEvent = EventInput & { id?: string; createdAt?: Date };

/** A message's next parts and their events, serialised when queued, and who waits for them. */
type QueuedDeltas = {
  sessionId: string;
  turnId: string | null;
  parts: string;
  events: string[];
  waiters: Waiter[];
};
type Waiter = { resolve(): void; reject(error: unknown): void };
/** `outageSince`: when the database first became unreachable in the current run of failures. */
type DeltaQueue = {
  byMessage: Map<string, QueuedDeltas>;
  isSending: boolean;
  outageSince?: number;
  lastSentAt: number;
};

/** The shortest time between the starts of two delta statements of one process. */
export const DELTA_TICK_MS = 25;
const RETRY_DELAYS_MS = [100, 250, 500, 1_000, 2_000];

const globalForDeltas = globalThis as unknown as { patchbayDeltaQueues?: WeakMap<SqlPool, DeltaQueue> };
const deltaQueues = (globalForDeltas.patchbayDeltaQueues ??= new WeakMap());

function serialise(event: DeltaEvent): string {
  return JSON.stringify({
    type: event.type,
    data: event.data,
    ...(event.id !== undefined && { id: event.id, createdAt: event.createdAt?.toISOString() }),
  });
}

/**
 * Rewrites a streamed message's parts and stores the events that brought it there (text and
 * reasoning deltas, a tool call), atomically: a history read (messages + last event id, one
 * snapshot) therefore always holds exactly the content of the events up to its id — a reload
 * neither repeats nor misses a delta. `parts` is serialised at once (the caller may go on changing
 * it). Queued for the process's next deltas statement; resolves when it committed and was delivered.
 */
export function publishMessageDeltas(
  db: Db,
  batch: { sessionId: string; turnId: string | null; messageId: string; parts: unknown[]; events: DeltaEvent[] },
): Promise<void> {
  return queueDeltas(streamPoolOf(db), { ...batch, parts: JSON.stringify(batch.parts) });
}

/** publishMessageDeltas with the parts already serialised, on the given pool. */
export function queueDeltas(
  pool: SqlPool,
  batch: { sessionId: string; turnId: string | null; messageId: string; parts: string; events: DeltaEvent[] },
): Promise<void> {
  let queue = deltaQueues.get(pool);
  if (!queue) deltaQueues.set(pool, (queue = { byMessage: new Map(), isSending: false, lastSentAt: 0 }));
  const events = batch.events.map(serialise);
  const done = new Promise<void>((resolve, reject) => {
    // A later batch of a message still queued replaces its parts (they hold everything before) and
    // adds its events after the earlier ones: still exactly the parts of all its queued events.
    const entry = queue.byMessage.get(batch.messageId) ?? {
      sessionId: batch.sessionId,
      turnId: batch.turnId,
      parts: "",
      events: [],
      waiters: [],
    };
    entry.parts = batch.parts;
    entry.events.push(...events);
    entry.waiters.push({ resolve, reject });
    queue.byMessage.set(batch.messageId, entry);
  });
  if (!queue.isSending) void sendQueuedDeltas(pool, queue);
  return done;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends what is queued, and what queues meanwhile, on ONE connection held until the queue is empty:
 * the deltas wait for the pool once per burst, not once per statement.
 */
async function sendQueuedDeltas(pool: SqlPool, queue: DeltaQueue, attempt = 0): Promise<void> {
  queue.isSending = true;
  let client: pg.PoolClient | null = null;
  let broken: Error | undefined;
  let isWaitingOut = false;
  try {
    while (queue.byMessage.size > 0) {
      const wait = queue.lastSentAt + DELTA_TICK_MS - performance.now();
      if (wait > 0) await sleep(wait); // what queues meanwhile goes in the same statement
      const taken = [...queue.byMessage];
      queue.byMessage.clear();
      const waiters = taken.flatMap(([, entry]) => entry.waiters);
      try {
        client ??= await pool.connect();
        queue.lastSentAt = performance.now();
        const rows = await writeDeltas(client, taken);
        queue.outageSince = undefined;
        for (const row of rows) deliverOn(pool, row.sessionId, row, { wasPublished: true });
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        broken = error as Error; // the connection may be unusable: the pool discards it
        const outageSince = (queue.outageSince ??= Date.now());
        if (isDatabaseUnavailable(error) && Date.now() - outageSince < DELTA_OUTAGE_BUDGET_MS) {
          requeueInFront(queue, taken);
          isWaitingOut = true;
        } else {
          queue.outageSince = undefined;
          for (const waiter of waiters) waiter.reject(error);
        }
        break;
      }
    }
  } finally {
    client?.release(broken);
    if (isWaitingOut) {
      // Still "sending": new deltas queue behind these, and one retry runs after the pause.
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
      setTimeout(() => void sendQueuedDeltas(pool, queue, attempt + 1), delay).unref();
    } else {
      queue.isSending = false;
      if (broken && queue.byMessage.size > 0) void sendQueuedDeltas(pool, queue);
    }
  }
}

/** Puts taken deltas back before anything queued since: their events first, the newest parts kept. */
function requeueInFront(queue: DeltaQueue, taken: [string, QueuedDeltas][]): void {
  const later = new Map(queue.byMessage);
  queue.byMessage.clear();
  for (const [messageId, entry] of taken) {
    const newer = later.get(messageId);
    later.delete(messageId);
    queue.byMessage.set(
      messageId,
      newer
        ? {
            ...entry,
            parts: newer.parts,
            events: [...entry.events, ...newer.events],
            waiters: [...entry.waiters, ...newer.waiters],
          }
        : entry,
    );
  }
  for (const [messageId, entry] of later) queue.byMessage.set(messageId, entry);
}

/**
 * ONE statement for every queued message: parts, events (in queue order; a numbered event keeps its
 * id and time), and per session the appended rows and the id before them.
 */
async function writeDeltas(client: pg.PoolClient, taken: [string, QueuedDeltas][]) {
  const input = taken.map(
    ([messageId, entry], ord) =>
      `{"ord":${ord},"messageId":${JSON.stringify(messageId)},"sessionId":${JSON.stringify(entry.sessionId)},` +
      `"turnId":${JSON.stringify(entry.turnId)},"parts":${entry.parts},"events":[${entry.events.join(",")}]}`,
  );
  const { rows } = await runStatement<AppendedRow & { sessionId: string }>(client, WRITE_DELTAS_SQL, [
    `[${input.join(",")}]`,
  ]);
  return rows;
}

const WRITE_DELTAS_SQL = statement(
  "write_deltas",
  `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS x("ord" int, "messageId" text, "sessionId" text, "turnId" text, "parts" jsonb, "events" jsonb)
    ), updated AS (
      UPDATE "Message" m SET "parts" = input."parts", "updatedAt" = now() AT TIME ZONE 'UTC'
      FROM input WHERE m.id = input."messageId"
      RETURNING m.id
    ), appended AS (
      INSERT INTO "SessionEvent" ("id", "sessionId", "turnId", "type", "data", "createdAt")
      SELECT COALESCE((e.value ->> 'id')::bigint, nextval(pg_get_serial_sequence('"SessionEvent"', 'id'))),
        i."sessionId", i."turnId", e.value ->> 'type', e.value -> 'data',
        COALESCE((e.value ->> 'createdAt')::timestamptz, now()) AT TIME ZONE 'UTC'
      FROM input i CROSS JOIN LATERAL jsonb_array_elements(i."events") WITH ORDINALITY AS e(value, ord)
      ORDER BY i."ord", e.ord
      ON CONFLICT ("id") DO NOTHING
      RETURNING id, "sessionId", "turnId", "type", "data", "createdAt"
    )
    SELECT s."sessionId", (SELECT count(*) FROM updated) AS updated,
      (SELECT COALESCE(json_agg(json_build_object('id', a.id::text, 'sessionId', a."sessionId",
          'turnId', a."turnId", 'type', a."type", 'data', a."data", 'createdAt', a."createdAt") ORDER BY a.id), '[]')
        FROM appended a WHERE a."sessionId" = s."sessionId") AS "appendedEvents",
      (SELECT max(id)::text FROM "SessionEvent" e WHERE e."sessionId" = s."sessionId") AS "previousEventId"
    FROM (SELECT DISTINCT "sessionId" FROM input) s`,
);
