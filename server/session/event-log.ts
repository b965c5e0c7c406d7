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
//  - no named prepared statements: PGlite's socket server shares one backend between connections.
import { EventEmitter } from "node:events";

import type pg from "pg";

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
type DeltaQueue = { byMessage: Map<string, QueuedDeltas>; isSending: boolean };

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

const PAGE_SIZE = 500;

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
async function sendQueuedDeltas(pool: SqlPool, queue: DeltaQueue): Promise<void> {
  queue.isSending = true;
  let client: pg.PoolClient | null = null;
  let broken: Error | undefined;
  try {
    while (queue.byMessage.size > 0) {
      const taken = [...queue.byMessage];
      queue.byMessage.clear();
      const waiters = taken.flatMap(([, entry]) => entry.waiters);
      try {
        client ??= await pool.connect();
        const rows = await writeDeltas(client, taken);
        for (const row of rows) deliverOn(pool, row.sessionId, row);
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        broken = error as Error; // the connection may be unusable: the pool discards it
        for (const waiter of waiters) waiter.reject(error);
        break;
      }
    }
  } finally {
    client?.release(broken);
    queue.isSending = false;
    if (broken && queue.byMessage.size > 0) void sendQueuedDeltas(pool, queue);
  }
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

type EventRow = Omit<SessionEventDto, "type"> & { type: string };

/** The session's next page of events after `afterId` (all of them from the start when null), oldest first. */
export async function readEventsAfter(db: Db, sessionId: string, afterId: string | null): Promise<SessionEventDto[]> {
  const { rows } = await poolOf(db).query<EventRow>(
    `SELECT id::text AS id, "sessionId", "turnId", "type", "data", "createdAt" AT TIME ZONE 'UTC' AS "createdAt"
    FROM "SessionEvent" WHERE "sessionId" = $1 AND id > $2::bigint ORDER BY "SessionEvent".id LIMIT ${PAGE_SIZE}`,
    [sessionId, afterId ?? "0"],
  );
  return rows as SessionEventDto[];
}

export const EVENT_PAGE_SIZE = PAGE_SIZE;

/** The id of the session's last event, or null when it has none. */
export async function getLastEventId(db: Db, sessionId: string): Promise<string | null> {
  const { rows } = await poolOf(db).query<{ id: string | null }>(
    `SELECT max(id)::text AS id FROM "SessionEvent" WHERE "sessionId" = $1`,
    [sessionId],
  );
  return rows[0]?.id ?? null;
}
