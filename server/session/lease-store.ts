// Turn leases in SQL (raw parameterised statements on the client's pg pool: an instance renews all
// its running turns every few seconds, and with hundreds of turns that must stay cheap). A turn runs
// in the instance named by `leaseOwner` while `leaseExpiresAt` is ahead; the owner renews it, and
// any instance may end a turn whose lease lapsed. Times come from the app's clock (as every other
// lease write) and are stored as UTC.
import { poolOf, type Db } from "../db/client.ts";

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

/** Streaming turns whose lease lapsed before `now` (their instance stopped renewing it). */
export async function findLapsedTurns(db: Db, now: Date): Promise<{ id: string; sessionId: string }[]> {
  const { rows } = await poolOf(db).query<{ id: string; sessionId: string }>(
    `SELECT "id", "sessionId" FROM "Turn"
    WHERE "status" = 'streaming' AND "leaseExpiresAt" < $1::timestamptz AT TIME ZONE 'UTC'`,
    [now],
  );
  return rows;
}
