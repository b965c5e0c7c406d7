// The start of a model request, on the streaming hot path: its bookkeeping statement (audit row,
// the empty assistant message, `request.started` + `message.created`: one statement of raw SQL, see
// turn-sql.ts for the conventions) and the early publication of those two events. The turn numbers
// them from its own reservation of event ids (event-ids.ts) and publishes them to this process's
// subscribers before the statement commits, so the request's deltas can follow at once; the
// statement stores them under the same ids. With too few ids left, the statement numbers them and
// they go out when it commits (deliverAppended), as any append does.
import { poolOf, type Db } from "../db/client.ts";
import { isEmptyReport, type OverlayReport } from "../core/context-overlays.ts";
import { nextEventIdsSql, RESERVED_IDS, type EventIdReservation } from "./event-ids.ts";
import { appendedColumns, deliverAppended, publishHere, type AppendedRow, type EventInput } from "./event-log.ts";
import type { TurnSpec } from "./turn-spec.ts";
import { NEXT_SEQ, NOW } from "./turn-sql.ts";
import { runStatement, statement } from "../db/statements.ts";

/** The two events a model request starts with (recordRequestStart stores them), in order. */
export function requestStartEvents(request: {
  messageId: string;
  index: number;
  toolsRevision: number;
  toolNames: string[];
  overlayRevision?: number;
  overlays?: OverlayReport;
}): [EventInput, EventInput] {
  const { messageId, index, toolsRevision, toolNames } = request;
  const overlayRevision = request.overlayRevision ?? 0;
  const overlays = request.overlays && !isEmptyReport(request.overlays) ? request.overlays : null;
  return [
    { type: "request.started", data: { index, toolsRevision, toolNames, overlayRevision, overlays } },
    { type: "message.created", data: { messageId, role: "assistant" } },
  ];
}

/**
 * The start of a model request: its audit row (tool revision and the tool names it was shown), the
 * turn's step count, the empty assistant message it streams into, and `request.started` +
 * `message.created`. The ids come from the caller (newRowId), so it can stream before this commits.
 * It also reserves `reserveIds` event ids above the two events' (event-ids.ts), for the message's
 * deltas; returned ascending.
 */
export async function recordRequestStart(
  db: Db,
  request: {
    requestId: string;
    messageId: string;
    turnId: string;
    sessionId: string;
    index: number;
    toolsRevision: number;
    toolNames: string[];
    /** The context overlay revision it was rendered with, and what the overlays changed. */
    overlayRevision?: number;
    overlays?: OverlayReport;
    reserveIds?: number;
    /**
     * The two events' ids when the caller numbered them itself (from its own reservation, to publish
     * them before this commits); else they are drawn here.
     */
    eventIds?: readonly [string, string];
  },
): Promise<string[]> {
  const { requestId, messageId, index, toolsRevision, toolNames } = request;
  const overlayRevision = request.overlayRevision ?? 0;
  const overlays = request.overlays && !isEmptyReport(request.overlays) ? request.overlays : null;
  const events = requestStartEvents(request);
  const { rows } = await runStatement<AppendedRow & { reservedIds: string[] }>(poolOf(db), REQUEST_START_SQL, [
    requestId,
    request.turnId,
    index,
    toolsRevision,
    JSON.stringify(toolNames),
    messageId,
    request.sessionId,
    JSON.stringify(events),
    request.reserveIds ?? 0,
    overlayRevision,
    overlays ? JSON.stringify(overlays) : null,
    request.eventIds ? [...request.eventIds] : null,
  ]);
  deliverAppended(db, request.sessionId, rows[0]);
  return rows[0]!.reservedIds;
}

/** How many events a request starts with (turn-sql.ts, requestStartEvents). */
export const REQUEST_START_EVENTS = 2;

/**
 * Numbers the request's first events from the turn's reservation and publishes them to this
 * process's subscribers now (recordRequestStart stores them under these ids); their ids, or null
 * when too few ids are left (then recordRequestStart numbers them, and they go out when it commits).
 */
function publishRequestStart(
  turn: TurnSpec,
  ids: EventIdReservation,
  request: Parameters<typeof requestStartEvents>[0],
): [string, string] | null {
  const taken = ids.take(REQUEST_START_EVENTS);
  if (!taken) return null;
  const createdAt = new Date();
  const events = requestStartEvents(request).map((event, at) => ({
    ...event,
    id: taken[at]!,
    sessionId: turn.sessionId,
    turnId: turn.id,
    createdAt,
  }));
  publishHere(turn.sessionId, events);
  return [taken[0]!, taken[1]!];
}

export type RequestStart = Parameters<typeof requestStartEvents>[0] & {
  requestId: string;
  turnId: string;
  sessionId: string;
};

/**
 * Starts the request's bookkeeping and publishes its first events when it can. For its writer
 * (streaming-message.ts): `published` resolves when its deltas may go out (at once when the events
 * were numbered here), `stored` when they may be stored (the bookkeeping committed; the ids it
 * reserved join the turn's). `onFailure` runs when the bookkeeping fails (the stream must end).
 */
export function startRequest(
  db: Db,
  turn: TurnSpec,
  ids: EventIdReservation,
  request: RequestStart,
  onFailure: () => void,
): { ids: EventIdReservation; published: Promise<unknown>; stored: Promise<unknown> } {
  const eventIds = publishRequestStart(turn, ids, request);
  const stored = recordRequestStart(db, {
    ...request,
    ...(eventIds ? { eventIds } : { reserveIds: RESERVED_IDS }),
  }).then(
    (reserved) => ids.add(reserved),
    (error: unknown) => {
      onFailure();
      throw error;
    },
  );
  return { ids, published: eventIds ? Promise.resolve() : stored, stored };
}

const REQUEST_START_SQL = statement(
  "request_start",
  `WITH request AS (
      INSERT INTO "TurnRequest" ("id", "turnId", "index", "toolsRevision", "toolNames", "overlayRevision",
        "overlays", "startedAt")
      VALUES ($1::text, $2::text, $3::int, $4::int, $5::jsonb, $10::int, $11::jsonb, ${NOW})
      RETURNING "id"
    ), message AS (
      INSERT INTO "Message" ("id", "sessionId", "turnId", "seq", "role", "parts", "createdAt", "updatedAt")
      VALUES ($6::text, $7::text, $2::text, ${NEXT_SEQ("$7::text")}, 'assistant'::"MessageRole", '[]'::jsonb,
        ${NOW}, ${NOW})
      RETURNING "id"
    ), stepped AS (
      UPDATE "Turn" SET "stepCount" = $3::int + 1 WHERE id = $2::text RETURNING "id"
    ), ids AS MATERIALIZED (
      SELECT unnest($12::bigint[]) AS id
      UNION ALL (${nextEventIdsSql("2 + $9::int")} WHERE $12::bigint[] IS NULL)
    ),
    ranked AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY id) AS ord FROM ids),
    appended AS (
      INSERT INTO "SessionEvent" ("id", "sessionId", "turnId", "type", "data", "createdAt")
      SELECT ranked.id, $7::text, $2::text, e.value ->> 'type', e.value -> 'data', ${NOW}
      FROM jsonb_array_elements($8::jsonb) WITH ORDINALITY AS e(value, ord) JOIN ranked ON ranked.ord = e.ord
      ORDER BY e.ord
      RETURNING id, "sessionId", "turnId", "type", "data", "createdAt"
    )
    SELECT (SELECT count(*) FROM request) AS requests, (SELECT count(*) FROM message) AS messages,
      (SELECT count(*) FROM stepped) AS stepped, ${appendedColumns("$7::text")},
      (SELECT COALESCE(json_agg(id::text ORDER BY id), '[]') FROM ranked WHERE ord > 2) AS "reservedIds"`,
);
