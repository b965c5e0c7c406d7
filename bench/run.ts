// `npm run bench`: prints figures for the foundation's hot paths, never passes or fails on time.
//  - migrations: applying prisma/migrations to a fresh real Postgres database and to a fresh
//    embedded (PGlite) database, including the embedded server's first start;
//  - session queries: create + list of a user's chat sessions, per operation, on both.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { createDbClient, type Db } from "../server/db.ts";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { createChatSession, listChatSessions } from "../server/session/chat-sessions.ts";
import { createTestDatabase, createTestUser } from "../server/testing/database.ts";

const ITERATIONS = 200;

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  console.log(
    `${label.padEnd(44)} n=${String(samples.length).padStart(4)}  mean ${mean.toFixed(2)} ms  p50 ${pick(0.5).toFixed(2)} ms  p95 ${pick(0.95).toFixed(2)} ms`,
  );
}

async function time<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}

async function benchSessions(label: string, db: Db): Promise<void> {
  const user = await createTestUser(db, "Bench");
  const creates: number[] = [];
  const lists: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    creates.push((await time(() => createChatSession(db, user.id, `Chat ${i}`)))[1]);
    lists.push((await time(() => listChatSessions(db, user.id)))[1]);
  }
  report(`${label}: create session`, creates);
  report(`${label}: list sessions (grows to ${ITERATIONS})`, lists);
}

async function main(): Promise<void> {
  const [real, realSetupMs] = await time(() => createTestDatabase());
  console.log(`postgres: create database + apply migrations   ${realSetupMs.toFixed(0)} ms`);
  await benchSessions("postgres", real.db);
  await real.drop();

  const dir = await mkdtemp(path.join(tmpdir(), "patchbay-bench-"));
  const [embedded, startMs] = await time(() => startEmbeddedPostgres(dir));
  const [, migrateMs] = await time(() => applyMigrations(embedded.url));
  console.log(`embedded: first start ${startMs.toFixed(0)} ms, apply migrations ${migrateMs.toFixed(0)} ms`);
  const db = createDbClient(embedded.url);
  await benchSessions("embedded", db);
  await db.$disconnect();
  await embedded.close();
  await rm(dir, { recursive: true, force: true });
}

await main();
