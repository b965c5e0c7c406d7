// Liveness of app instances in seconds rather than a lease: each instance holds a session-level
// Postgres advisory lock named after its instance id, on a connection of its own, for as long as it
// runs. Postgres frees the lock the moment that connection ends (the process was killed, or its
// host is gone once TCP notices), so any instance tells a dead owner from a live one by whether the
// owner's lock is held (pg_locks: lease-store.ts, findOrphanedTurns). A lost lock connection is
// re-opened and the lock taken again, every second until it works; meanwhile other instances may end
// this one's turns as interrupted, and this one then stops them at its next lease renewal. The turn
// lease stays the fallback for an instance that holds its lock but can no longer write.
import pg from "pg";

/** The first key of every instance lock ("PBAY"); the second is hashtext(instance id). */
export const INSTANCE_LOCK_CLASS = 0x50424159;
const RETRY_MS = 1_000;

export type InstanceLock = {
  readonly instanceId: string;
  /** True while the lock is held (false between a lost connection and the lock taken again). */
  isHeld(): boolean;
  /** Ends the connection, which frees the lock; no retries after it. */
  release(): Promise<void>;
};

/** Takes this instance's lock (resolves once it is held) and keeps it for the process's life. */
export async function holdInstanceLock(url: string, instanceId: string): Promise<InstanceLock> {
  let client: pg.Client | null = null;
  let isHeld = false;
  let isReleased = false;
  let retry: NodeJS.Timeout | undefined;

  const take = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on("error", () => undefined); // reported through "end"
    next.on("end", () => {
      if (client !== next) return;
      isHeld = false;
      client = null;
      if (!isReleased) {
        console.warn("[patchbay] instance lock connection lost; taking the lock again");
        schedule();
      }
    });
    await next.connect();
    await next.query("SELECT pg_advisory_lock($1::int, hashtext($2::text))", [INSTANCE_LOCK_CLASS, instanceId]);
    if (isReleased) return void (await next.end());
    client = next;
    isHeld = true;
  };
  const schedule = () => {
    clearTimeout(retry);
    retry = setTimeout(() => {
      take().catch((error: unknown) => {
        console.warn(`[patchbay] instance lock: ${(error as Error).message}; retrying`);
        schedule();
      });
    }, RETRY_MS);
    retry.unref();
  };

  await take();
  return {
    instanceId,
    isHeld: () => isHeld,
    release: async () => {
      isReleased = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      isHeld = false;
      await current?.end().catch(() => undefined);
    },
  };
}
