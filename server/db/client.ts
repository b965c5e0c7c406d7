// The database handles, and the database they talk to. DATABASE_URL set: that Postgres. Unset: the
// embedded Postgres in PATCHBAY_DATA_DIR. Each client has two `pg.Pool`s:
//  - the request pool (poolOf) carries every query of requests and turns: the Prisma client (through
//    the `pg` driver adapter) and raw parameterised SQL for the session engine's hot path
//    (server/session/event-log.ts, turn-sql.ts, lease-store.ts), where Prisma's per-query CPU cost
//    dominates;
//  - the streaming pool (streamPoolOf, STREAM_POOL_SIZE connections, opened on first use) carries
//    only the streamed deltas (session/delta-queue.ts) and event id reservations, so neither waits
//    behind the other; it ends with the request pool.
// Every pending migration is applied before the first query. One client per process (kept on
// globalThis so Next.js dev reloads do not open a new pool each time).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

import { isEmbeddedUrl, startEmbeddedPostgres } from "./embedded-postgres.ts";
import { applyMigrations } from "./migrate.ts";
import { keepFirstPlans, runUnnamed } from "./statements.ts";
import { env } from "../env.ts";
import { PrismaClient } from "../generated/prisma/client.ts";

export type Db = PrismaClient;
export type SqlPool = pg.Pool;

type DbState = { client: PrismaClient; url: string; close(): Promise<void> };

const globalForDb = globalThis as unknown as {
  patchbayDb?: Promise<DbState>;
  patchbayPools?: WeakMap<PrismaClient, pg.Pool>;
  patchbayStreamPools?: WeakMap<PrismaClient, pg.Pool>;
};

/** The pool under each client made here (see poolOf); process-wide, as Next.js may load this module twice. */
const pools = (globalForDb.patchbayPools ??= new WeakMap());
const streamPools = (globalForDb.patchbayStreamPools ??= new WeakMap());

/** Connections of the streaming pool: one statement is in flight at a time, plus a reservation. */
const STREAM_POOL_SIZE = 2;

async function openDatabase(): Promise<DbState> {
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.PATCHBAY_DATA_DIR);
  const url = env.DATABASE_URL ?? embedded!.url;
  await applyMigrations(url);
  const client = createDbClient(url, {
    max: embedded ? 4 : env.DATABASE_POOL_SIZE,
    namedStatements: env.DATABASE_PREPARED_STATEMENTS,
  });
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

/** The client's streaming pool (see the top of this file): streamed deltas and event id reservations. */
export function streamPoolOf(db: Db): SqlPool {
  const stream = streamPools.get(db);
  if (!stream)
    throw new Error("This Prisma client was not created by server/db/client.ts, so it has no streaming pool.");
  return stream;
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
 * benches and CLI tools. `$disconnect()` ends the pool too. `namedStatements` (default true): the
 * hot path's statements are prepared once per connection and keep their first plan (statements.ts);
 * never on an embedded database, whose connections share one backend.
 */
export function createDbClient(url: string, options: { max?: number; namedStatements?: boolean } = {}): PrismaClient {
  const isNamed = options.namedStatements !== false && !isEmbeddedUrl(url);
  const onConnect = isNamed ? keepFirstPlans : undefined;
  const pool = openPool(url, options.max ?? 10, onConnect);
  const stream = openPool(url, STREAM_POOL_SIZE, onConnect);
  if (!isNamed) for (const each of [pool, stream]) runUnnamed(each);
  const endRequestPool = pool.end.bind(pool);
  // Prisma's $disconnect ends the request pool; the streaming pool goes with it.
  pool.end = async () => {
    await Promise.all([stream.ending ? undefined : stream.end(), endRequestPool()]);
  };
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  streamPools.set(client, stream);
  return client;
}

/** `onConnect`: a new connection's set-up, done before its first query (statements.ts). */
function openPool(url: string, max: number, onConnect?: (connection: pg.ClientBase) => Promise<void>): pg.Pool {
  // pg-pool awaits the promise onConnect returns before handing the connection out (its typing says void).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const pool = new pg.Pool({ connectionString: url, max, onConnect });
  // An idle connection that breaks (a restarted server, a dropped test database) must not crash the
  // process: the pool discards it and the next query opens a new one.
  pool.on("error", (error) => {
    if (!pool.ending) console.warn(`[patchbay] idle database connection lost: ${error.message}`);
  });
  return pool;
}
