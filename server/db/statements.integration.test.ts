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
