// Storage figures (the foundation's original bench): applying prisma/migrations to a fresh real
// Postgres database and to a fresh embedded (PGlite) database, including the embedded server's
// first start; then create + list of a user's chat sessions, per operation, on both.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { createDbClient, type Db } from "../server/db/client.ts";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { createChatSession, listChatSessions } from "../server/db/chat-sessions.ts";
import { createTestDatabase, createTestUser } from "../e2e/support/testbeds/database.ts";
import { ms, printTable, summarize, time } from "./stats.ts";

const ITERATIONS = 200;

async function benchSessions(label: string, db: Db): Promise<string[][]> {
  const user = await createTestUser(db, "Bench");
  const creates: number[] = [];
  const lists: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    creates.push((await time(() => createChatSession(db, user.id, `Chat ${i}`)))[1]);
    lists.push((await time(() => listChatSessions(db, user.id)))[1]);
  }
  return [row(`${label}: create session`, creates), row(`${label}: list sessions (grows to ${ITERATIONS})`, lists)];
}

function row(name: string, samples: number[]): string[] {
  const s = summarize(samples);
  return [name, String(s.n), ms(s.mean), ms(s.p50), ms(s.p95), ms(s.p99)];
}

export async function runStorageBench(): Promise<void> {
  const [real, realSetupMs] = await time(() => createTestDatabase());
  const rows = await benchSessions("postgres", real.db);
  await real.drop();

  const dir = await mkdtemp(path.join(tmpdir(), "patchbay-bench-"));
  const [embedded, startMs] = await time(() => startEmbeddedPostgres(dir));
  const [, migrateMs] = await time(() => applyMigrations(embedded.url));
  const db = createDbClient(embedded.url);
  rows.push(...(await benchSessions("embedded", db)));
  await db.$disconnect();
  await embedded.close();
  await rm(dir, { recursive: true, force: true });

  printTable(
    "Storage: migrations",
    ["step", "time"],
    [
      ["postgres: create database + apply migrations", ms(realSetupMs, 0)],
      ["embedded: first start", ms(startMs, 0)],
      ["embedded: apply migrations", ms(migrateMs, 0)],
    ],
  );
  printTable("Storage: session queries (per operation)", ["operation", "n", "mean", "p50", "p95", "p99"], rows);
}
