// Turn leases in SQL (raw parameterised statements on the client's pg pool: an instance renews all
// its running turns every few seconds, and with hundreds of turns that must stay cheap). A turn runs
// in the instance named by `leaseOwner` while `leaseExpiresAt` is ahead; the owner renews it, and
// any instance may end a turn whose lease lapsed, or whose owner's instance lock nobody holds any
// more (instance-lock.ts: the owner died; found in seconds, where the lease takes its full length).
// Times come from the app's clock (as every other lease write) and are stored as UTC.
import { poolOf, type Db } from "../db/client.ts";
import { INSTANCE_LOCK_CLASS } from "./instance-lock.ts";

/**
 * Extends the leases of `turnIds` that `owner` holds and that still stream uncancelled, and returns
 * those of `turnIds` that no longer may run (ended, or cancel/supersede requested): ONE statement.
 */
export async function renewLeases(
  db: Db,
  lease: { turnIds: string[]; owner: string; expiresAt: Date },
): Promise<string[]> {
  const { rows } = await poolOf(db).query<{ id: string }>(
    `WITH renewed AS (
      UPDATE "Turn" SET "leaseExpiresAt" = $3::timestamptz AT TIME ZONE 'UTC'
      WHERE id = ANY($1::text[]) AND "status" = 'streaming' AND "cancelRequested" IS NULL AND "leaseOwner" = $2::text
      RETURNING "id"
    )
    SELECT "id" FROM "Turn"
    WHERE id = ANY($1::text[]) AND ("status" <> 'streaming' OR "cancelRequested" IS NOT NULL)`,
    [lease.turnIds, lease.owner, lease.expiresAt],
  );
  return rows.map((row) => row.id);
}

/** Streaming turns (in `sessionId` when given) whose lease lapsed before `now` (their instance stopped renewing it). */
export async function findLapsedTurns(
  db: Db,
  now: Date,
  sessionId?: string,
): Promise<{ id: string; sessionId: string }[]> {
  const { rows } = await poolOf(db).query<{ id: string; sessionId: string }>(
    `SELECT "id", "sessionId" FROM "Turn"
    WHERE "status" = 'streaming' AND "leaseExpiresAt" < $1::timestamptz AT TIME ZONE 'UTC'
      AND ($2::text IS NULL OR "sessionId" = $2::text)`,
    [now, sessionId ?? null],
  );
  return rows;
}

/**
 * Streaming turns of other instances whose instance lock nobody holds (instance-lock.ts): their
 * process is gone. Only in `sessionId` when given. A turn with no owner is never one of them.
 */
export async function findOrphanedTurns(
  db: Db,
  scope: { exceptOwner: string; sessionId?: string },
): Promise<{ id: string; sessionId: string }[]> {
  const { rows } = await poolOf(db).query<{ id: string; sessionId: string }>(
    `SELECT t."id", t."sessionId" FROM "Turn" t
    WHERE t."status" = 'streaming' AND t."leaseOwner" IS NOT NULL AND t."leaseOwner" <> $1::text
      AND ($2::text IS NULL OR t."sessionId" = $2::text)
      AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l."locktype" = 'advisory' AND l."granted" AND l."objsubid" = 2
          AND l."database" = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l."classid" = $3::int::oid AND l."objid" = hashtext(t."leaseOwner")::oid
      )`,
    [scope.exceptOwner, scope.sessionId ?? null, INSTANCE_LOCK_CLASS],
  );
  return rows;
}
