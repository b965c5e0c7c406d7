// The Prisma client, and the database it talks to. DATABASE_URL set: that Postgres. Unset: the
// embedded Postgres in PATCHBAY_DATA_DIR. Either way the same `pg` driver adapter is used and every
// pending migration is applied before the first query. One client per process (kept on globalThis
// so Next.js dev reloads do not open a new pool each time).
import { PrismaPg } from "@prisma/adapter-pg";

import { startEmbeddedPostgres } from "./db/embedded-postgres.ts";
import { applyMigrations } from "./db/migrate.ts";
import { env } from "./env.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

type DbState = { client: PrismaClient; url: string; close(): Promise<void> };

const globalForDb = globalThis as unknown as { patchbayDb?: Promise<DbState> };

async function openDatabase(): Promise<DbState> {
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.PATCHBAY_DATA_DIR);
  const url = env.DATABASE_URL ?? embedded!.url;
  await applyMigrations(url);
  const adapter = new PrismaPg({ connectionString: url, max: embedded ? 4 : 10 });
  const client = new PrismaClient({ adapter });
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

/** The connection URL in use (embedded or DATABASE_URL), for components that need a raw connection. */
export async function getDatabaseUrl(): Promise<string> {
  await getDb();
  return (await globalForDb.patchbayDb!).url;
}

/** Closes the client and, if embedded, the database server. */
export async function closeDb(): Promise<void> {
  const state = globalForDb.patchbayDb;
  globalForDb.patchbayDb = undefined;
  await (await state)?.close();
}

/** A client for an explicit URL, without the process-wide state: for tests and CLI tools. */
export function createDbClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}
