// The session event log in SQL: the statements that append to it and read it, as raw parameterised
// SQL on the client's pg pool (poolOf), because this is the streaming hot path. Contracts:
//  - every append is ONE statement (atomic): the events and the rows they describe (a message's
//    parts) commit together. Streamed deltas of all of this process's sessions share a statement
//    (publishMessageDeltas: one in flight per pool, on a connection held while there is work; the
//    next takes everything queued meanwhile), so hundreds of streaming sessions cost one statement
//    per round trip, not one per batch each, and never queue behind other queries for the pool;
//  - the events of one call get ids in the order given; with one writer per session at a time (the
//    turn holding it) ids are in commit order within a session, so "the events after id X" is exact;
//  - after an append commits, other instances are told with NOTIFY patchbay_session_events
//    '<process tag>|<sessionId>' (batched across sessions: notifier.ts, notifyOthers); this
//    process's subscribers instead receive the appended rows themselves (onEventsAppended) with the
//    id of the session's event before them, as the statement saw it: a subscriber at exactly that
//    id takes them without reading the log;
//  - timestamps are written and read as UTC (the columns are `timestamp(3)` without a zone, as Prisma
//    writes them);
//  - no named prepared statements: PGlite's socket server shares one backend between connections;
//  - a database outage loses no delta: while the database is unreachable (database-unavailable.ts)
//    the queued deltas stay queued, in order, and the statement is retried with backoff for up to
//    DELTA_OUTAGE_BUDGET_MS; only past that do their waiters see the error.
import { EventEmitter } from "node:events";

import type pg from "pg";

import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { poolOf, type Db, type SqlPool } from "../db/client.ts";
import { CHANNELS, notifyOthers } from "../db/notifier.ts";
import type { SessionEventDto, SessionEventType } from "./event-types.ts";

export type EventInput = {
  type: SessionEventType;
  data: Record<string, unknown>;
};

/** Events one statement appended to a session, and the id of the session's event before them. */
export type AppendedEvents = {
  previousId: string | null;
  events: SessionEventDto[];
};

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
type DeltaQueue = { byMessage: Map<string, QueuedDeltas>; isSending: boolean; outageSince?: number };

/** How long queued deltas wait out an unreachable database before their waiters see the error. */
export const DELTA_OUTAGE_BUDGET_MS = 60_000;
const RETRY_DELAYS_MS = [100, 250, 500, 1_000, 2_000];

/** Process-wide (on globalThis: Next.js may load this module once per route bundle). */
const globalForEvents = globalThis as unknown as {
  patchbayAppendedEvents?: EventEmitter;
  patchbayDeltaQueues?: WeakMap<SqlPool, DeltaQueue>;
};
const appendedHere = (globalForEvents.patchbayAppendedEvents ??= new EventEmitter().setMaxListeners(0));
const deltaQueues = (globalForEvents.patchbayDeltaQueues ??= new WeakMap());

/** Calls `listener` with every batch this process appends to the session; returns the unsubscribe. */
export function onEventsAppended(sessionId: string, listener: (appended: AppendedEvents) => void): () => void {
  appendedHere.on(sessionId, listener);
  return () => appendedHere.off(sessionId, listener);
}

/**
 * The CTE `appended`, for a statement that writes other rows in the same breath: it appends the
 * jsonb array `events` ([{ type, data }], in order) for `sessionId` / `turnId`. The arguments are
 * SQL expressions (parameter references such as "$3::jsonb"), never data. The statement selects
 * appendedColumns(...) and hands its row to deliverAppended.
 */
export function appendEventsCtes(sql: { sessionId: string; turnId: string; events: string }): string {
  return `appended AS (
      INSERT INTO "SessionEvent" ("sessionId", "turnId", "type", "data", "createdAt")
      SELECT ${sql.sessionId}, ${sql.turnId}, e.value ->> 'type', e.value -> 'data', now() AT TIME ZONE 'UTC'
      FROM jsonb_array_elements(${sql.events}) WITH ORDINALITY AS e(value, ord)
      ORDER BY e.ord
      RETURNING id, "sessionId", "turnId", "type", "data", "createdAt"
    )`;
}

/**
 * The output columns the statement selects (one row) for deliverAppended: the appended rows and the
 * id of the session's event before them (the statement's snapshot does not see its own inserts).
 */
export function appendedColumns(sessionId: string): string {
  return `(SELECT COALESCE(json_agg(json_build_object('id', a.id::text, 'sessionId', a."sessionId",
        'turnId', a."turnId", 'type', a."type", 'data', a."data", 'createdAt', a."createdAt") ORDER BY a.id), '[]')
      FROM appended a) AS "appendedEvents",
    (SELECT max(id)::text FROM "SessionEvent" WHERE "sessionId" = ${sessionId}) AS "previousEventId"`;
}

export type AppendedRow = {
  appendedEvents: (Omit<SessionEventDto, "createdAt"> & {
    createdAt: string;
  })[];
  previousEventId: string | null;
};

/**
 * After the statement committed: hands its appended events (see appendedColumns) to this process's
 * subscribers and queues the NOTIFY that tells other instances.
 */
export function deliverAppended(db: Db, sessionId: string, row: AppendedRow | undefined): void {
  deliverOn(poolOf(db), sessionId, row);
}

function deliverOn(pool: SqlPool, sessionId: string, row: AppendedRow | undefined): void {
  if (!row?.appendedEvents?.length) return;
  notifyOthers(pool, CHANNELS.sessionEvents, sessionId);
  const events = row.appendedEvents.map((event) => ({
    ...event,
    createdAt: new Date(`${event.createdAt}Z`),
  }));
  appendedHere.emit(sessionId, {
    previousId: row.previousEventId,
    events,
  } satisfies AppendedEvents);
}

/** Appends one event (one statement), then delivers it here and notifies other instances. */
export async function appendEvent(
  db: Db,
  event: {
    sessionId: string;
    turnId?: string | null;
    type: SessionEventType;
    data: Record<string, unknown>;
  },
): Promise<string> {
  const ids = await appendEvents(db, {
    sessionId: event.sessionId,
    turnId: event.turnId,
    events: [{ type: event.type, data: event.data }],
  });
  return ids[0]!;
}

/** Appends events of one turn, in order, in one statement (as appendEvent); their ids. */
export async function appendEvents(
  db: Db,
  batch: { sessionId: string; turnId?: string | null; events: EventInput[] },
): Promise<string[]> {
  if (batch.events.length === 0) return [];
  const { rows } = await poolOf(db).query<AppendedRow>(
    `WITH ${appendEventsCtes({ sessionId: "$1::text", turnId: "$2::text", events: "$3::jsonb" })}
    SELECT ${appendedColumns("$1::text")}`,
    [batch.sessionId, batch.turnId ?? null, JSON.stringify(batch.events)],
  );
  deliverAppended(db, batch.sessionId, rows[0]);
  return rows[0]!.appendedEvents.map((event) => event.id);
}

/**
 * Rewrites a streamed message's parts and appends the events that brought it there (text and
 * reasoning deltas, a tool call), atomically: a history read (messages + last event id, one
 * snapshot) therefore always holds exactly the content of the events up to its id — a reload
 * neither repeats nor misses a delta. `parts` is serialised at once (the caller may go on changing
 * it). Queued for the pool's next deltas statement; resolves when it committed and was delivered.
 */
export function publishMessageDeltas(
  db: Db,
  batch: {
    sessionId: string;
    turnId: string | null;
    messageId: string;
    parts: unknown[];
    events: EventInput[];
  },
): Promise<void> {
  const pool = poolOf(db);
  let queue = deltaQueues.get(pool);
  if (!queue) deltaQueues.set(pool, (queue = { byMessage: new Map(), isSending: false }));
  const events = batch.events.map((event) => JSON.stringify(event));
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
    entry.parts = JSON.stringify(batch.parts);
    entry.events.push(...events);
    entry.waiters.push({ resolve, reject });
    queue.byMessage.set(batch.messageId, entry);
  });
  if (!queue.isSending) void sendQueuedDeltas(pool, queue);
  return done;
}

/**
 * Sends what is queued, and what queues meanwhile, on ONE connection held until the queue is empty:
 * the deltas wait for the pool once per burst, not once per statement behind every other query.
 */
async function sendQueuedDeltas(pool: SqlPool, queue: DeltaQueue, attempt = 0): Promise<void> {
  queue.isSending = true;
  let client: pg.PoolClient | null = null;
  let broken: Error | undefined;
  let isWaitingOut = false;
  try {
    while (queue.byMessage.size > 0) {
      const taken = [...queue.byMessage];
      queue.byMessage.clear();
      const waiters = taken.flatMap(([, entry]) => entry.waiters);
      try {
        client ??= await pool.connect();
        const rows = await writeDeltas(client, taken);
        queue.outageSince = undefined;
        for (const row of rows) deliverOn(pool, row.sessionId, row);
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

/** ONE statement for every queued message: parts, events (in queue order), the ids before them. */
async function writeDeltas(client: pg.PoolClient, taken: [string, QueuedDeltas][]) {
  const input = taken.map(
    ([messageId, entry], ord) =>
      `{"ord":${ord},"messageId":${JSON.stringify(messageId)},"sessionId":${JSON.stringify(entry.sessionId)},` +
      `"turnId":${JSON.stringify(entry.turnId)},"parts":${entry.parts},"events":[${entry.events.join(",")}]}`,
  );
  const { rows } = await client.query<AppendedRow & { sessionId: string }>(
    `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS x("ord" int, "messageId" text, "sessionId" text, "turnId" text, "parts" jsonb, "events" jsonb)
    ), updated AS (
      UPDATE "Message" m SET "parts" = input."parts", "updatedAt" = now() AT TIME ZONE 'UTC'
      FROM input WHERE m.id = input."messageId"
      RETURNING m.id
    ), appended AS (
      INSERT INTO "SessionEvent" ("sessionId", "turnId", "type", "data", "createdAt")
      SELECT i."sessionId", i."turnId", e.value ->> 'type', e.value -> 'data', now() AT TIME ZONE 'UTC'
      FROM input i CROSS JOIN LATERAL jsonb_array_elements(i."events") WITH ORDINALITY AS e(value, ord)
      ORDER BY i."ord", e.ord
      RETURNING id, "sessionId", "turnId", "type", "data", "createdAt"
    )
    SELECT s."sessionId", (SELECT count(*) FROM updated) AS updated,
      (SELECT COALESCE(json_agg(json_build_object('id', a.id::text, 'sessionId', a."sessionId",
          'turnId', a."turnId", 'type', a."type", 'data', a."data", 'createdAt', a."createdAt") ORDER BY a.id), '[]')
        FROM appended a WHERE a."sessionId" = s."sessionId") AS "appendedEvents",
      (SELECT max(id)::text FROM "SessionEvent" e WHERE e."sessionId" = s."sessionId") AS "previousEventId"
    FROM (SELECT DISTINCT "sessionId" FROM input) s`,
    [`[${input.join(",")}]`],
  );
  return rows;
}
