// Integration-test databases: each call creates a fresh Postgres database on the test server
// (TEST_DATABASE_ADMIN_URL), applies the real migrations, and hands back a Prisma client, the pg pool
// under it (for raw SQL, as the app's getPool()) and a drop() for afterAll. Never used by the app itself.
import { randomBytes } from "node:crypto";

import pg from "pg";

import { createDbClient, poolOf, type Db, type SqlPool } from "../../../server/db/client.ts";
import { applyMigrations } from "../../../server/db/migrate.ts";
import { env } from "../../../server/env.ts";

export type TestDatabase = { url: string; db: Db; pool: SqlPool; drop(): Promise<void> };

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: env.TEST_DATABASE_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const name = `patchbay_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = Object.assign(new URL(env.TEST_DATABASE_ADMIN_URL), { pathname: `/${name}` }).toString();
  await applyMigrations(url);
  const db = createDbClient(url, options);
  const pool = poolOf(db);
  return {
    url,
    db,
    pool,
    drop: async () => {
      await db.$disconnect();
      if (!pool.ending) await pool.end(); // raw SQL alone (Prisma never connected) leaves it open
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** A user row, as Auth.js would create on first sign-in. */
export async function createTestUser(db: Db, name: string): Promise<{ id: string; name: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.test`;
  return db.user.create({ data: { name, email }, select: { id: true, name: true, email: true } }) as Promise<{
    id: string;
    name: string;
    email: string;
  }>;
}
