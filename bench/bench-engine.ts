// The engine the streaming benches drive: like e2e/support/testbeds/engine.ts (a fresh real Postgres
// database, LISTEN, a SessionManager on the built-in tools, or on a tool source the bench builds on
// that database) but wired the way the app runs it, so the figures mean what a deployment would
// see: a system prompt like the app's, its default lease (15 s), and a Prisma client on its pg pool
// (the one raw SQL uses too, as in the app), of the app's size (10) unless told otherwise, so the
// pool's load (waiting clients) can be sampled. The fake provider is passed in: in process, or a child process (see
// fake-provider-process.ts).
import { performance } from "node:perf_hooks";

import type pg from "pg";

import type { Db } from "../server/db/client.ts";
import type { SessionManager } from "../server/session/manager.ts";
import { startListening, stopListening } from "../server/db/notifier.ts";
import type { ToolSource } from "../server/core/tool-source.ts";
import { createTestDatabase, type TestDatabase } from "../e2e/support/testbeds/database.ts";
import { createManager, fakeResolver, type FakeProviderId } from "../e2e/support/testbeds/engine.ts";

export type FakeUrls = { baseUrls: Record<FakeProviderId, string> };

export type BenchEngine = {
  database: TestDatabase;
  db: Db;
  pool: pg.Pool;
  /** performance.now() of every pool checkout (one per query, or per transaction). */
  checkouts: number[];
  manager: SessionManager;
  close(): Promise<void>;
};

export type BenchEngineOptions = {
  fake: FakeUrls;
  poolSize: number;
  /** The fetch Patchbay's model clients use (to observe the provider's chunks as they arrive). */
  fetch?: typeof globalThis.fetch;
  /** The turns' tool source, built on the engine's database (default: the built-in tools only). */
  tools?: (db: Db) => Promise<ToolSource>;
};

const APP_LEASE_MS = 15_000;
/** As long as the app's prompt (server/session/app-runtime.ts, not imported: it starts the MCP runtime). */
const SYSTEM_PROMPT =
  "You are a helpful assistant in Patchbay, a chat app. Use the available tools when they help, and say when a tool failed.";

export async function startBenchEngine(options: BenchEngineOptions): Promise<BenchEngine> {
  const database = await createTestDatabase({ max: options.poolSize });
  const { db, pool } = database;
  const checkouts: number[] = [];
  pool.on("acquire", () => checkouts.push(performance.now()));
  await startListening(database.url);
  const manager = createManager(db, options.fake, {
    resolveModel: fakeResolver(options.fake, { fetch: options.fetch }),
    leaseMs: APP_LEASE_MS,
    system: SYSTEM_PROMPT,
    ...(options.tools && { tools: await options.tools(db) }),
  });
  manager.start();
  return {
    database,
    db,
    pool,
    checkouts,
    manager,
    close: async () => {
      await manager.stop();
      await stopListening();
      await database.drop();
    },
  };
}
