// The database handles, and the database they talk to. DATABASE_URL set: that Postgres. Unset: the
// embedded Postgres in PATCHBAY_DATA_DIR. Either way one `pg.Pool` per client carries every query:
// the Prisma client (through the `pg` driver adapter) for most of the app, and raw parameterised SQL
// on the same pool for the session engine's hot path (server/session/event-log.ts,
// turn-sql.ts, lease-store.ts), where Prisma's per-query CPU cost dominates. Every pending
// migration is applied before the first query. One client per process (kept on globalThis so Next.js
// dev reloads do not open a new pool each time).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { applyMigrations } from "./migrate.ts";
import { env } from "../env.ts";
import { PrismaClient } from "../generated/prisma/client.ts";

export type Db = PrismaClient;
export type SqlPool = pg.Pool;

type DbState = { client: PrismaClient; url: string; close(): Promise<void> };

const globalForDb = globalThis as unknown as {
  patchbayDb?: Promise<DbState>;
  patchbayPools?: WeakMap<PrismaClient, pg.Pool>;
};

/** The pool under each client made here (see poolOf); process-wide, as Next.js may load this module twice. */
const pools = (globalForDb.patchbayPools ??= new WeakMap());

async function openDatabase(): Promise<DbState> {
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.PATCHBAY_DATA_DIR);
  const url = env.DATABASE_URL ?? embedded!.url;
  await applyMigrations(url);
  const client = createDbClient(url, { max: embedded ? 4 : 10 });
  return {
    client,
    url,
    close: async () => {
      await client.$disconnect();
      await embedded?.close();
    },
  };
}

/** The process-wide Prisma client; the first call starts the database and applies migrations. */
export async function getDb(): Promise<Db> {
  globalForDb.patchbayDb ??= openDatabase().catch((error: unknown) => {
    globalForDb.patchbayDb = undefined;
    throw error;
  });
  return (await globalForDb.patchbayDb).client;
}

/** The process-wide pool (the one under getDb()'s client), for raw SQL. */
export async function getPool(): Promise<SqlPool> {
  return poolOf(await getDb());
}

/**
 * The pool under a client made by this module (getDb, createDbClient): raw SQL on it shares the
 * client's connections and its lifetime ($disconnect ends the pool).
 */
export function poolOf(db: Db): SqlPool {
  const pool = pools.get(db);
  if (!pool)
    throw new Error("This Prisma client was not created by server/db/client.ts, so it has no pool for raw SQL.");
  return pool;
}

/** The connection URL in use (embedded or DATABASE_URL), for components that need a raw connection. */
export async function getDatabaseUrl(): Promise<string> {
  await getDb();
  return (await globalForDb.patchbayDb!).url;
}

/** Closes the client and its pool and, if embedded, the database server. */
export async function closeDb(): Promise<void> {
  const state = globalForDb.patchbayDb;
  globalForDb.patchbayDb = undefined;
  await (await state)?.close();
}

/**
 * A client (and its pool, see poolOf) for an explicit URL, without the process-wide state: for tests,
 * benches and CLI tools. `$disconnect()` ends the pool too.
 */
export function createDbClient(url: string, options: { max?: number } = {}): PrismaClient {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle connection that breaks (a restarted server, a dropped test database) must not crash the
  // process: the pool discards it and the next query opens a new one.
  pool.on("error", (error) => {
    if (!pool.ending) console.warn(`[patchbay] idle database connection lost: ${error.message}`);
  });
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}
