// The hot path's named statements: one text per name, and unnamed where a pool says so (a stand-in
// for pg's pool records what it is asked to run; statements.integration.test.ts runs them for real).
import { EventEmitter } from "node:events";

import type pg from "pg";
import { describe, expect, it, vi } from "vitest";

import { runStatement, runUnnamed, statement } from "./statements.ts";

/** Records the query configs it gets; emits "connect" like a pool that opened a connection. */
class RecordingPool extends EventEmitter {
  readonly configs: unknown[] = [];
  query(config: unknown) {
    this.configs.push(config);
    return Promise.resolve({ rows: [] });
  }
}
const asPool = (pool: RecordingPool) => pool as unknown as pg.Pool;

describe("statement", () => {
  it("prefixes the name and accepts the same text again", () => {
    const first = statement("unit_same", "SELECT 1");
    expect(first).toEqual({ name: "patchbay_unit_same", text: "SELECT 1" });
    expect(statement("unit_same", "SELECT 1")).toEqual(first);
  });

  it("refuses a second text under one name", () => {
    statement("unit_clash", "SELECT 1");
    expect(() => statement("unit_clash", "SELECT 2")).toThrow('Statement "unit_clash" was declared with two texts.');
  });
});

describe("runStatement", () => {
  const sql = statement("unit_run", "SELECT $1::int AS v");

  it("runs the statement named, with its values", async () => {
    const pool = new RecordingPool();
    await runStatement(asPool(pool), sql, [7]);
    expect(pool.configs).toEqual([{ name: "patchbay_unit_run", text: "SELECT $1::int AS v", values: [7] }]);
  });

  it("runs it unnamed on a pool marked so, and on the connections that pool opens", async () => {
    const pool = new RecordingPool();
    runUnnamed(asPool(pool));
    const connection = new RecordingPool();
    pool.emit("connect", connection);
    await runStatement(asPool(pool), sql, [1]);
    await runStatement(connection as unknown as pg.PoolClient, sql, [2]);
    expect(pool.configs).toEqual([{ text: "SELECT $1::int AS v", values: [1] }]);
    expect(connection.configs).toEqual([{ text: "SELECT $1::int AS v", values: [2] }]);
  });

  it("reads a mark another copy of the module set (Next.js may load a module twice in one process)", async () => {
    vi.resetModules();
    const other = await import("./statements.ts");
    const pool = new RecordingPool();
    other.runUnnamed(asPool(pool));
    await runStatement(asPool(pool), sql, [3]);
    expect(pool.configs).toEqual([{ text: "SELECT $1::int AS v", values: [3] }]);
  });
});
