// One rule for a connector's health across app instances. Each instance sees its own connections:
// one may be cut off from a server that the others reach. So what an instance sees is written on a
// shared board (McpConnectionHealth: instance, connection key, reachable, renewed by a heartbeat),
// and the registry asks the board before dropping tools: a connector's tools leave a chat's revision
// only when NO live instance reaches it. An instance that cannot reach a server that another live
// instance reaches keeps the tools of the chat's latest revision (so its rebuild changes nothing, and
// makes no revision) and answers calls to them with "unavailable" in words. An instance counts as
// live while its rows are younger than `ttlMs`; a stopped or crashed instance's rows simply age out.
// Times are the database's own (one clock for every instance).
import type { Db } from "../db/client.ts";
import type { ConnectionHealth } from "./connection-types.ts";

export const HEALTH_TTL_MS = 30_000;

export class HealthBoard {
  constructor(
    private readonly db: Db,
    readonly instanceId: string,
    readonly ttlMs = HEALTH_TTL_MS,
  ) {}

  /** What this instance sees of a connection now (also the heartbeat: it renews the row). */
  async report(connectionKey: string, isReachable: boolean): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO "McpConnectionHealth" ("instanceId", "connectionKey", "isReachable", "updatedAt")
      VALUES (${this.instanceId}, ${connectionKey}, ${isReachable}, now() AT TIME ZONE 'UTC')
      ON CONFLICT ("instanceId", "connectionKey")
      DO UPDATE SET "isReachable" = EXCLUDED."isReachable", "updatedAt" = EXCLUDED."updatedAt"`;
  }

  /**
   * How long (ms) another live instance's word that it reaches `connectionKey` stays fresh, or null
   * when no other live instance reaches it.
   */
  async reachableElsewhereFor(connectionKey: string): Promise<number | null> {
    const rows = await this.db.$queryRaw<{ remaining: number | null }[]>`
      SELECT EXTRACT(EPOCH FROM (max("updatedAt") + ${this.ttlMs} * interval '1 millisecond'
          - (now() AT TIME ZONE 'UTC'))) * 1000 AS remaining
      FROM "McpConnectionHealth"
      WHERE "connectionKey" = ${connectionKey} AND "isReachable" AND "instanceId" <> ${this.instanceId}
        AND "updatedAt" > (now() AT TIME ZONE 'UTC') - ${this.ttlMs} * interval '1 millisecond'`;
    const remaining = rows[0]?.remaining;
    return remaining === null || remaining === undefined ? null : Math.max(0, Number(remaining));
  }

  /** Forgets this instance's rows (a clean shutdown: the others need not wait for them to age out). */
  async withdraw(): Promise<void> {
    await this.db.$executeRaw`DELETE FROM "McpConnectionHealth" WHERE "instanceId" = ${this.instanceId}`;
  }
}

type HealthSource = { healthEntries(): [string, ConnectionHealth][] };

/** Writes a settled health change of this instance's connection to the board. */
export async function reportHealth(board: HealthBoard, key: string, health: ConnectionHealth): Promise<void> {
  if (health === "ready") await board.report(key, true);
  else if (health === "unhealthy" || health === "needs_authorization") await board.report(key, false);
}

/** Renews this instance's rows every third of the TTL, so the others know it is alive. */
export function startHeartbeat(board: HealthBoard, pool: HealthSource): () => void {
  const beat = async () => {
    for (const [key, health] of pool.healthEntries()) await reportHealth(board, key, health);
  };
  const timer = setInterval(() => {
    beat().catch((error: unknown) => console.warn("[patchbay] MCP health heartbeat failed:", (error as Error).message));
  }, board.ttlMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}
