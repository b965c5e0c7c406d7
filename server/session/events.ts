// The session event log: every canonical change a browser must see (user message, text and
// reasoning deltas, tool calls and results, turn status) is appended here as it happens, with a
// monotonic id. A browser subscribes from the last id it has, so after a reload or a reconnect it
// receives exactly what it missed: nothing duplicated, nothing lost. One writer per session at a
// time (the turn that holds the session), so ids are in commit order within a session.
import type { Db } from "../db.ts";
import { CHANNELS, emitLocal, taggedPayload, waitForNotification } from "./notifier.ts";

export type SessionEventType =
  | "user.message"
  | "turn.started"
  | "message.created"
  | "message.updated"
  | "text.delta"
  | "reasoning.delta"
  | "tool.call"
  | "tool.result"
  | "tool.progress"
  | "tool.approval"
  | "tool.approval.decided"
  | "limit.reached"
  | "request.started"
  | "turn.finished"
  | "tools.changed";

export type SessionEventDto = {
  id: string;
  sessionId: string;
  turnId: string | null;
  type: SessionEventType;
  data: Record<string, unknown>;
  createdAt: Date;
};

const POLL_INTERVAL_MS = 1_000;
const PAGE_SIZE = 500;

/**
 * Appends one event and notifies other instances in a single statement (the notification is sent
 * when it commits), then wakes this process's subscribers directly.
 */
export async function appendEvent(
  db: Db,
  event: { sessionId: string; turnId?: string | null; type: SessionEventType; data: Record<string, unknown> },
): Promise<string> {
  const rows = await db.$queryRaw<{ id: bigint }[]>`
    WITH inserted AS (
      INSERT INTO "SessionEvent" ("sessionId", "turnId", "type", "data")
      VALUES (${event.sessionId}, ${event.turnId ?? null}, ${event.type}, ${JSON.stringify(event.data)}::jsonb)
      RETURNING id
    ), notified AS (
      SELECT pg_notify(${CHANNELS.sessionEvents}, ${taggedPayload(event.sessionId)}) FROM inserted
    )
    SELECT id FROM inserted, (SELECT count(*) FROM notified) AS sent`;
  emitLocal(CHANNELS.sessionEvents, event.sessionId);
  return rows[0]!.id.toString();
}

/**
 * Rewrites a streamed message's parts and appends the delta events that brought it there, in ONE
 * statement: a history read (messages + last event id, one snapshot) therefore always holds exactly
 * the text of the events up to its id — a reload neither repeats nor misses a delta.
 */
export async function publishMessageDeltas(
  db: Db,
  batch: {
    sessionId: string;
    turnId: string;
    messageId: string;
    parts: unknown[];
    events: { type: SessionEventType; data: Record<string, unknown> }[];
  },
): Promise<void> {
  await db.$queryRaw`
    WITH updated AS (
      UPDATE "Message" SET "parts" = ${JSON.stringify(batch.parts)}::jsonb, "updatedAt" = now()
      WHERE id = ${batch.messageId}
      RETURNING id
    ), inserted AS (
      INSERT INTO "SessionEvent" ("sessionId", "turnId", "type", "data")
      SELECT ${batch.sessionId}, ${batch.turnId}, e.value ->> 'type', e.value -> 'data'
      FROM jsonb_array_elements(${JSON.stringify(batch.events)}::jsonb) WITH ORDINALITY AS e(value, ord)
      ORDER BY e.ord
      RETURNING id
    ), notified AS (
      SELECT pg_notify(${CHANNELS.sessionEvents}, ${taggedPayload(batch.sessionId)})
    )
    SELECT (SELECT count(*) FROM updated) AS updated, (SELECT count(*) FROM inserted) AS inserted,
      (SELECT count(*) FROM notified) AS notified`;
  emitLocal(CHANNELS.sessionEvents, batch.sessionId);
}

export async function readEventsAfter(db: Db, sessionId: string, afterId: string | null): Promise<SessionEventDto[]> {
  const rows = await db.sessionEvent.findMany({
    where: { sessionId, ...(afterId ? { id: { gt: BigInt(afterId) } } : {}) },
    orderBy: { id: "asc" },
    take: PAGE_SIZE,
  });
  return rows.map((row) => ({
    id: row.id.toString(),
    sessionId: row.sessionId,
    turnId: row.turnId,
    type: row.type as SessionEventType,
    data: row.data as Record<string, unknown>,
    createdAt: row.createdAt,
  }));
}

export async function getLastEventId(db: Db, sessionId: string): Promise<string | null> {
  const last = await db.sessionEvent.findFirst({ where: { sessionId }, orderBy: { id: "desc" }, select: { id: true } });
  return last ? last.id.toString() : null;
}

/** Yields the session's events after `afterId`, then new ones as they are appended, until abort. */
export async function* followEvents(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
): AsyncGenerator<SessionEventDto> {
  let cursor = afterId;
  while (!signal.aborted) {
    const wake = waitForNotification(CHANNELS.sessionEvents, sessionId, POLL_INTERVAL_MS, signal);
    const events = await readEventsAfter(db, sessionId, cursor);
    for (const event of events) {
      cursor = event.id;
      yield event;
    }
    if (events.length < PAGE_SIZE) await wake;
  }
}
