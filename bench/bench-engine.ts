// The engine the streaming benches drive: like server/testing/engine.ts (a fresh real Postgres
// database, LISTEN, a SessionManager on the built-in tools, or on a tool source the bench builds on
// that database) but wired the way the app runs it, so the figures mean what a deployment would
// see: a system prompt like the app's, its default lease (15 s), and a Prisma client on a pg pool
// this bench owns, of the app's size (10) unless told otherwise, so the pool's load (waiting
// clients) can be sampled. The fake provider is passed in: in process, or a child process (see
// fake-provider-process.ts).
import { performance } from "node:perf_hooks";

import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

import type { Db } from "../server/db.ts";
import { PrismaClient } from "../server/generated/prisma/client.ts";
import { createLanguageModel } from "../server/providers/model-factory.ts";
import type { ProviderId } from "../server/session/canonical.ts";
import type { SessionManager } from "../server/session/manager.ts";
import { startListening, stopListening } from "../server/session/notifier.ts";
import type { ToolSource } from "../server/session/tool-runner.ts";
import { createTestDatabase, type TestDatabase } from "../server/testing/database.ts";
import { createManager, fakeBaseUrl, type FakeProviderId } from "../server/testing/engine.ts";

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
/** As long as the app's prompt (server/session/instance.ts, not imported: it starts the MCP runtime). */
const SYSTEM_PROMPT =
  "You are a helpful assistant in Patchbay, a chat app. Use the available tools when they help, and say when a tool failed.";

export async function startBenchEngine(options: BenchEngineOptions): Promise<BenchEngine> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: options.poolSize });
  const checkouts: number[] = [];
  pool.on("acquire", () => checkouts.push(performance.now()));
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  await startListening(database.url);
  const manager = createManager(db, options.fake, {
    resolveModel: (provider: ProviderId, modelId: string) =>
      createLanguageModel({
        provider,
        modelId,
        apiKey: "test-key",
        baseURL: fakeBaseUrl(options.fake, provider),
        fetch: options.fetch,
      }),
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
      await db.$disconnect();
      await pool.end();
      // pool.end() resolves before its clients' sockets have closed; DROP ... WITH (FORCE) may then
      // terminate one, and an 'error' on a pool without a listener would crash the process.
      pool.on("error", () => undefined);
      await database.drop();
    },
  };
}
