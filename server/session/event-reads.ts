// Reading the session event log: one page of a session's events after an id, oldest first. The
// writers and their ordering contract are in event-log.ts; a history read plus the events after its
// lastEventId gives every event exactly once.
import { poolOf, type Db } from "../db/client.ts";
import type { SessionEventDto } from "./event-types.ts";
import { runStatement, statement } from "../db/statements.ts";

/** How many events one read returns at the most; a reader that gets a full page reads again. */
export const EVENT_PAGE_SIZE = 500;

type EventRow = Omit<SessionEventDto, "type"> & { type: string };

const EVENTS_AFTER_SQL = statement(
  "events_after",
  `SELECT id::text AS id, "sessionId", "turnId", "type", "data", "createdAt" AT TIME ZONE 'UTC' AS "createdAt"
  FROM "SessionEvent" WHERE "sessionId" = $1 AND id > $2::bigint ORDER BY "SessionEvent".id LIMIT ${EVENT_PAGE_SIZE}`,
);

/** The session's next page of events after `afterId` (all of them from the start when null), oldest first. */
export async function readEventsAfter(db: Db, sessionId: string, afterId: string | null): Promise<SessionEventDto[]> {
  const { rows } = await runStatement<EventRow>(poolOf(db), EVENTS_AFTER_SQL, [sessionId, afterId ?? "0"]);
  return rows as SessionEventDto[];
}
