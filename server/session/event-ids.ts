// Event ids a streaming message's writer hands out itself, so that it can publish each delta to
// this process's subscribers the moment it arrives and store it behind (delta-queue.ts). The ids
// come from the event log's own sequence (SessionEvent.id), reserved in blocks by a small query
// (one reservation per turn: turn-runner.ts takes the ids of each request's own first events from it
// too, so it can publish them before its bookkeeping commits), refilled in the background when it
// runs low. Contracts:
//  - ids are handed out ascending, and each above every id this process has delivered or read for
//    the session (lastEventSeen): a reserved id that another event has overtaken is skipped, never
//    used, so a subscriber at the last id it saw never receives an older one;
//  - an id is used at most once; unused ids are simply never stored (the log's ids have gaps);
//  - a refill that meets a database outage is retried like any write of the turn (database-retry.ts).
import type { SqlPool } from "../db/client.ts";
import { retryWhileDatabaseUnavailable } from "./database-retry.ts";
import { lastEventSeen } from "./event-log.ts";
import { runStatement, statement } from "../db/statements.ts";

/** How many ids the request's bookkeeping reserves, and a refill fetches. */
export const RESERVED_IDS = 64;
/** Below this many left, a refill is started in the background. */
const REFILL_BELOW = 16;

/** SQL: `count` fresh ids of the event log's sequence, as the column "id" (bigint). */
export const nextEventIdsSql = (count: string) =>
  `SELECT nextval(pg_get_serial_sequence('"SessionEvent"', 'id')) AS id FROM generate_series(1, ${count})`;

const RESERVE_IDS_SQL = statement("reserve_event_ids", nextEventIdsSql(String(RESERVED_IDS)));

export class EventIdReservation {
  private ids: bigint[];
  private refilling: Promise<void> | null = null;

  constructor(
    private readonly pool: SqlPool,
    private readonly sessionId: string,
    reserved: readonly string[] = [],
  ) {
    this.ids = reserved.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Resolves once at least `count` usable ids are in hand (at once, usually). */
  async ensure(count: number): Promise<void> {
    while (this.usable() < count) await this.startRefill();
  }

  /**
   * `count` ids, ascending and above everything seen for the session; null when too few are left
   * (then ensure(count)). Running low starts a refill in the background.
   */
  take(count: number): string[] | null {
    if (this.usable() < count) return null;
    const taken = this.ids.splice(0, count).map(String);
    // In the background: a failure shows on the next ensure().
    if (this.ids.length < REFILL_BELOW && !this.refilling) this.startRefill().catch(() => undefined);
    return taken;
  }

  /** Takes in ids reserved elsewhere (by a statement of the caller's), keeping the order ascending. */
  add(reserved: readonly string[]): void {
    if (reserved.length === 0) return;
    this.ids.push(...reserved.map(BigInt));
    this.ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Drops the ids another event has overtaken; how many are left. */
  private usable(): number {
    const seen = lastEventSeen(this.sessionId);
    if (seen !== undefined) {
      const firstAbove = this.ids.findIndex((id) => id > seen);
      this.ids.splice(0, firstAbove === -1 ? this.ids.length : firstAbove);
    }
    return this.ids.length;
  }

  /** The refill under way, or a new one. */
  private startRefill(): Promise<void> {
    return (this.refilling ??= retryWhileDatabaseUnavailable(() =>
      runStatement<{ id: string }>(this.pool, RESERVE_IDS_SQL, []),
    )
      .then(({ rows }) => {
        const fresh = rows.map((row) => BigInt(row.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        this.ids.push(...fresh); // drawn after every id already held: still ascending
      })
      .finally(() => {
        this.refilling = null;
      }));
  }
}
