// Named statements against the real databases: on Postgres each connection prepares a hot-path
// statement once and reuses it; on the embedded database (one backend behind every connection) the
// same statement runs on two connections at once, which a name would make fail ("already exists").
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createDbClient, poolOf } from "./client.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.ts";
import { runStatement, statement } from "./statements.ts";

const SQL = statement("integration_probe", "SELECT $1::int + 1 AS v");
const LOOKUP = statement("integration_lookup", `SELECT id FROM "User" WHERE email = $1::text`);

describe("on Postgres", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 1 });
  });
  afterAll(() => database.drop());

  it("prepares a statement once per connection and runs it again by name", async () => {
    const connection = await database.pool.connect();
    try {
      expect((await runStatement<{ v: number }>(connection, SQL, [1])).rows).toEqual([{ v: 2 }]);
      expect((await runStatement<{ v: number }>(connection, SQL, [41])).rows).toEqual([{ v: 42 }]);
      const prepared = await connection.query<{ name: string }>(
        "SELECT name FROM pg_prepared_statements WHERE name LIKE 'patchbay_%'",
      );
      expect(prepared.rows).toEqual([{ name: "patchbay_integration_probe" }]);
    } finally {
      connection.release();
    }
  });

  it("keeps a statement's first plan from its first run on a connection, not only after five", async () => {
    const connection = await database.pool.connect();
    try {
      const mode = await connection.query<{ plan_cache_mode: string }>("SHOW plan_cache_mode");
      expect(mode.rows).toEqual([{ plan_cache_mode: "force_generic_plan" }]);
      for (let run = 0; run < 3; run++) await runStatement(connection, LOOKUP, ["nobody"]);
      const plans = await connection.query<{ generic: string; custom: string }>(
        `SELECT generic_plans::text AS generic, custom_plans::text AS custom
         FROM pg_prepared_statements WHERE name = 'patchbay_integration_lookup'`,
      );
      expect(plans.rows).toEqual([{ generic: "3", custom: "0" }]);
    } finally {
      connection.release();
    }
  });

  it("leaves planning alone where statements go unnamed (a pooler in transaction mode)", async () => {
    const db = createDbClient(database.url, { max: 1, namedStatements: false });
    try {
      const mode = await poolOf(db).query<{ plan_cache_mode: string }>("SHOW plan_cache_mode");
      expect(mode.rows).toEqual([{ plan_cache_mode: "auto" }]);
    } finally {
      await db.$disconnect();
    }
  });
});

describe("on the embedded database", () => {
  let tempRoot: string;
  let running: EmbeddedPostgres;
  beforeAll(async () => {
    tempRoot = await mkdtemp(path.join(os.tmpdir(), "patchbay-statements-"));
    running = await startEmbeddedPostgres(tempRoot);
  }, 120_000);
  afterAll(async () => {
    await running.close();
    await rm(tempRoot, { recursive: true, force: true });
  });

  it("runs a statement unnamed on two connections at once", async () => {
    const db = createDbClient(running.url, { max: 2 });
    const pool = poolOf(db);
    const [first, second] = [await pool.connect(), await pool.connect()];
    try {
      const answers = await Promise.all([runStatement(first, SQL, [1]), runStatement(second, SQL, [2])]);
      expect(answers.map((answer) => answer.rows)).toEqual([[{ v: 2 }], [{ v: 3 }]]);
    } finally {
      first.release();
      second.release();
      await db.$disconnect();
    }
  });
});
