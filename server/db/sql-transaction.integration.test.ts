// inSqlTransaction against the real Postgres: work commits as a whole or not at all, its error comes
// back as thrown, and the connection goes back to the pool (or, cut mid-transaction, is discarded)
// so a one-connection pool keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { inSqlTransaction } from "./sql-transaction.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
  await database.pool.query(`CREATE TABLE "TxProbe" ("name" text PRIMARY KEY)`);
});

afterAll(async () => {
  await database.drop();
});

async function names(): Promise<string[]> {
  const { rows } = await database.pool.query<{ name: string }>(`SELECT "name" FROM "TxProbe" ORDER BY "name"`);
  return rows.map((row) => row.name);
}

describe("inSqlTransaction", () => {
  it("commits every statement of the work and returns its result", async () => {
    const result = await inSqlTransaction(database.pool, async (client) => {
      await client.query(`INSERT INTO "TxProbe" VALUES ('a')`);
      await client.query(`INSERT INTO "TxProbe" VALUES ('b')`);
      return "done";
    });
    expect(result).toBe("done");
    expect(await names()).toEqual(["a", "b"]);
  });

  it("rolls back everything when the work throws, and rethrows that very error", async () => {
    const refusal = new Error("refused after the first write");
    await expect(
      inSqlTransaction(database.pool, async (client) => {
        await client.query(`INSERT INTO "TxProbe" VALUES ('c')`);
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(await names()).toEqual(["a", "b"]);
  });

  it("rolls back a failed statement, and the pool's only connection is usable again", async () => {
    await expect(
      inSqlTransaction(database.pool, async (client) => {
        await client.query(`INSERT INTO "TxProbe" VALUES ('d')`);
        await client.query(`INSERT INTO "TxProbe" VALUES ('a')`); // duplicate key
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await names()).toEqual(["a", "b"]);
  });

  it("discards a connection cut mid-transaction; the pool opens a fresh one", async () => {
    await expect(
      inSqlTransaction(database.pool, async (client) => {
        await client.query(`INSERT INTO "TxProbe" VALUES ('e')`);
        await client.query(`SELECT pg_terminate_backend(pg_backend_pid())`);
      }),
    ).rejects.toThrow();
    expect(await names()).toEqual(["a", "b"]);
    expect(database.pool.totalCount).toBeLessThanOrEqual(1);
  });
});
