// The session event log in SQL: the statements that append to it, as raw parameterised SQL on the
// client's pg pool (poolOf), because this is the streaming hot path; and this process's delivery of
// events to its subscribers. Contracts:
//  - every append is ONE statement (atomic): the events and the rows they describe (a message's
//    parts) commit together. Streamed deltas go through delta-queue.ts (one statement per tick for
//    all of this process's streams);
//  - the events of one call get ids in the order given; with one writer per session at a time (the
//    turn holding it) ids are in commit order within a session, so "the events after id X" is exact.
//    The writer of a streaming message numbers its deltas itself, from ids it reserved from the
//    same sequence (event-ids.ts), and publishes them here before they are stored (publishHere);
//  - after an append commits, other instances are told with NOTIFY patchbay_session_events
//    '<process tag>|<sessionId>@<last event id>' (batched across sessions: notifier.ts,
//    notifyOthers; a follower that already has that id skips the read); this
//    process's subscribers instead receive the events themselves (onEventsAppended) with the id of
//    the session's event before them: a subscriber at exactly that id takes them without reading
//    the log. Stored deltas that were already published are delivered again after their commit;
//    a subscriber that has them skips them, one that had fallen behind reads the log;
//  - the highest event id this process has delivered or read for each session is kept
//    (lastEventSeen): a self-numbered event is never published below it;
//  - with several worker processes (PATCHBAY_WORKERS), a batch of a chat another worker follows is
//    also sent to it at once (worker-relay.ts), published ones when published, not again when stored;
//  - timestamps are written and read as UTC (the columns are `timestamp(3)` without a zone, as Prisma
//    writes them);
//  - no named prepared statements: PGlite's socket server shares one backend between connections.
import { EventEmitter } from "node:events";

import { poolOf, type Db, type SqlPool } from "../db/client.ts";
import { CHANNELS, notifyOthers } from "../db/notifier.ts";
import type { AppendedEvents, SessionEventDto, SessionEventType } from "./event-types.ts";
import { runStatement, statement } from "../db/statements.ts";
import { followInWorker, onRelayedEvents, relayToOtherWorkers } from "./worker-relay.ts";

export type EventInput = {
  type: SessionEventType;
  data: Record<string, unknown>;
  /** The event's turn when it is not the batch's (a restart appends the old turn's end with the new one's start). */
  turnId?: string;
};

export type { AppendedEvents } from "./event-types.ts";

/** How long queued deltas wait out an unreachable database before their waiters see the error. */
export const DELTA_OUTAGE_BUDGET_MS = 60_000;
/** Sessions whose last seen event id is remembered; past this the oldest are forgotten. */
const SEEN_SESSIONS_MAX = 20_000;

/** Process-wide (on globalThis: Next.js may load this module once per route bundle). */
const globalForEvents = globalThis as unknown as {
  patchbayAppendedEvents?: EventEmitter;
  patchbayLastSeen?: Map<string, bigint>;
};
const appendedHere = (globalForEvents.patchbayAppendedEvents ??= new EventEmitter().setMaxListeners(0));
const lastSeen = (globalForEvents.patchbayLastSeen ??= new Map<string, bigint>());

/** Calls `listener` with every batch this process appends to the session; returns the unsubscribe. */
export function onEventsAppended(sessionId: string, listener: (appended: AppendedEvents) => void): () => void {
  appendedHere.on(sessionId, listener);
  const unfollow = followInWorker(sessionId);
  return () => {
    appendedHere.off(sessionId, listener);
    unfollow();
  };
}

// Another worker's batches of a chat this worker follows (worker-relay.ts) reach its subscribers as
// its own do.
onRelayedEvents((sessionId, appended) => {
  if (appended.events.length === 0) return;
  noteEventSeen(sessionId, appended.events.at(-1)!.id);
  appendedHere.emit(sessionId, appended);
});

/** The NOTIFY payload that tells other instances the session's log now reaches event `lastId`. */
export function sessionEventsPayload(sessionId: string, lastId: string): string {
  return `${sessionId}@${lastId}`;
}

/** A sessionEvents payload read back; `lastId` is null in a payload without one (an older instance's). */
export function parseSessionEventsPayload(payload: string): { sessionId: string; lastId: string | null } {
  const at = payload.lastIndexOf("@");
  if (at === -1) return { sessionId: payload, lastId: null };
  return { sessionId: payload.slice(0, at), lastId: payload.slice(at + 1) };
}

/** Records that event `id` of the session was delivered or read in this process. */
export function noteEventSeen(sessionId: string, id: string): void {
  const value = BigInt(id);
  const known = lastSeen.get(sessionId);
  if (known !== undefined && known >= value) return;
  lastSeen.delete(sessionId); // re-inserted last: the map's order is least recently advanced first
  lastSeen.set(sessionId, value);
  if (lastSeen.size > SEEN_SESSIONS_MAX) lastSeen.delete(lastSeen.keys().next().value!);
}

/** The highest event id of the session this process has delivered or read, if any. */
export function lastEventSeen(sessionId: string): bigint | undefined {
  return lastSeen.get(sessionId);
}

/**
 * Publishes self-numbered events (ids above lastEventSeen, in order) to this process's subscribers
 * now, before they are stored; the caller queues them for storage (delta-queue.ts).
 */
export function publishHere(sessionId: string, events: SessionEventDto[]): void {
  if (events.length === 0) return;
  const previous = lastSeen.get(sessionId);
  noteEventSeen(sessionId, events.at(-1)!.id);
  const appended: AppendedEvents = { previousId: previous === undefined ? null : previous.toString(), events };
  appendedHere.emit(sessionId, appended);
  relayToOtherWorkers(sessionId, appended);
}

/**
 * The CTE `appended`, for a statement that writes other rows in the same breath: it appends the
 * jsonb array `events` ([{ type, data, turnId? }], in order) for `sessionId` / `turnId` (an event's
 * own turnId wins). The arguments are SQL expressions (parameter references such as "$3::jsonb"),
 * never data. The statement selects appendedColumns(...) and hands its row to deliverAppended.
 */
export function appendEventsCtes(sql: { sessionId: string; turnId: string; events: string }): string {
  return `appended AS (
      INSERT INTO "SessionEvent" ("sessionId", "turnId", "type", "data", "createdAt")
      SELECT ${sql.sessionId}, COALESCE(e.value ->> 'turnId', ${sql.turnId}), e.value ->> 'type', e.value -> 'data',
        now() AT TIME ZONE 'UTC'
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

/**
 * deliverAppended on the pool that wrote the row (the NOTIFY goes out on it). `wasPublished`: the
 * events went out with publishHere before they were stored (the other workers have them already).
 */
export function deliverOn(
  pool: SqlPool,
  sessionId: string,
  row: AppendedRow | undefined,
  options: { wasPublished?: boolean } = {},
): void {
  if (!row?.appendedEvents?.length) return;
  notifyOthers(pool, CHANNELS.sessionEvents, sessionEventsPayload(sessionId, row.appendedEvents.at(-1)!.id));
  const events = row.appendedEvents.map((event) => ({
    ...event,
    createdAt: new Date(`${event.createdAt}Z`),
  }));
  noteEventSeen(sessionId, events.at(-1)!.id);
  const appended: AppendedEvents = { previousId: row.previousEventId, events };
  appendedHere.emit(sessionId, appended);
  if (!options.wasPublished) relayToOtherWorkers(sessionId, appended);
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

const APPEND_EVENTS_SQL = statement(
  "append_events",
  `WITH ${appendEventsCtes({ sessionId: "$1::text", turnId: "$2::text", events: "$3::jsonb" })}
  SELECT ${appendedColumns("$1::text")}`,
);

/** Appends events of one turn, in order, in one statement (as appendEvent); their ids. */
export async function appendEvents(
  db: Db,
  batch: { sessionId: string; turnId?: string | null; events: EventInput[] },
): Promise<string[]> {
  if (batch.events.length === 0) return [];
  const { rows } = await runStatement<AppendedRow>(poolOf(db), APPEND_EVENTS_SQL, [
    batch.sessionId,
    batch.turnId ?? null,
    JSON.stringify(batch.events),
  ]);
  deliverAppended(db, batch.sessionId, rows[0]);
  return rows[0]!.appendedEvents.map((event) => event.id);
}
