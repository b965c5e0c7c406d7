// Many sessions streaming at once: N users each start a turn at the same moment on a slow scripted
// stream (C chunks, D ms apart); a followEvents subscriber per session records when each text.delta
// arrives. Reported (by concurrency-report.ts): the subscriber's inter-arrival gaps against the
// provider's interval, each chunk's delay through Patchbay, chunks lost (received text checked chunk
// by chunk against the script), turn statuses, wall time, the load behind them (load-monitor.ts)
// and the database transactions. The turns run on the app's pool size (10) unless --pool says
// otherwise; nothing here fails on a figure.
import { performance } from "node:perf_hooks";

import { startFakeProvider } from "../e2e/support/fake-provider/server.ts";
import { createUserWithSession } from "../e2e/support/testbeds/engine.ts";
import { startBenchEngine, type BenchEngine } from "./bench-engine.ts";
import { startChildFake, type RunningFake } from "./child-fake.ts";
import { reportConcurrency, type SessionRun } from "./concurrency-report.ts";
import { startLoadMonitor } from "./load-monitor.ts";
import type { BenchOptions } from "./options.ts";
import { createProviderProbe } from "./provider-probe.ts";
import { sessionPrompt, slowReply } from "./slow-reply.ts";
import { sleep, withTimeout } from "./stats.ts";
import { watchSession } from "./session-watch.ts";

async function startFake(options: BenchOptions): Promise<RunningFake> {
  if (!options.isProviderInProcess) return startChildFake(options.chunks, options.chunkDelayMs);
  const fake = await startFakeProvider({ defaultReply: slowReply(options.chunks, options.chunkDelayMs) });
  return { baseUrls: fake.baseUrls, where: "in process", close: () => fake.close() };
}

async function databaseTransactions(engine: BenchEngine): Promise<number> {
  const name = new URL(engine.database.url).pathname.slice(1);
  const rows = await engine.db.$queryRaw<{ count: bigint }[]>`
    SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = ${name}`;
  return Number(rows[0]?.count ?? 0);
}

/**
 * One whole turn before the measured run, as the TTFT bench warms up: the modules a turn loads on
 * first use (AI SDK provider, renderers) are compiled (tsx) and JIT-warmed, which a running server
 * has long done; a cold start is not what this bench measures.
 */
async function warmUp(engine: BenchEngine): Promise<void> {
  const { userId, sessionId } = await createUserWithSession(engine.db, "Warm-up");
  const watch = watchSession(engine.db, sessionId);
  await engine.manager.startTurn(userId, sessionId, sessionPrompt(0), {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
  });
  await withTimeout(watch.finished, 30_000, null);
  watch.stop();
}

async function prepareSessions(engine: BenchEngine, options: BenchOptions) {
  const sessions = [];
  for (let index = 0; index < options.sessions; index++) {
    sessions.push(await createUserWithSession(engine.db, `U${index}`));
  }
  const watches = sessions.map(({ sessionId }) => watchSession(engine.db, sessionId));
  // Every subscriber makes its first read and waits, like open browser tabs; and Postgres (which
  // publishes a backend's transaction counts at most once a second) catches up with the setup.
  await sleep(1_100);
  return sessions.map((session, index) => ({ ...session, index, watch: watches[index]! }));
}

/** Starts every turn at once and waits for every turn.finished (or the timeout). */
async function runSessions(
  sessions: Awaited<ReturnType<typeof prepareSessions>>,
  engine: BenchEngine,
  timeoutMs: number,
) {
  const start = performance.now();
  const runs = await Promise.all(
    sessions.map(async ({ userId, sessionId, index, watch }): Promise<SessionRun> => {
      const run: SessionRun = { index, sessionId, calledAt: performance.now(), watch, startError: null };
      try {
        await engine.manager.startTurn(userId, sessionId, sessionPrompt(index), {
          provider: "anthropic",
          model: "claude-sonnet-4-5",
        });
      } catch (error) {
        run.startError = error instanceof Error ? error.message : String(error);
        watch.stop();
      }
      return run;
    }),
  );
  const finished = Promise.allSettled(sessions.map(({ watch }) => watch.finished)).then(() => true);
  const isAllFinished = await withTimeout(finished, timeoutMs, false);
  for (const { watch } of sessions) watch.stop();
  return { runs, start, isAllFinished };
}

export async function runConcurrencyBench(options: BenchOptions): Promise<void> {
  const fake = await startFake(options);
  const probe = createProviderProbe();
  const engine = await startBenchEngine({ fake, poolSize: options.poolSize, fetch: probe.fetch });
  try {
    await warmUp(engine);
    const sessions = await prepareSessions(engine, options);
    const transactionsBefore = await databaseTransactions(engine);
    const stopMonitor = await startLoadMonitor(engine);
    const { runs, start, isAllFinished } = await runSessions(sessions, engine, options.timeoutMs);
    const load = await stopMonitor();
    await sleep(1_500); // Postgres publishes a backend's transaction counts at most once a second
    const transactions = (await databaseTransactions(engine)) - transactionsBefore;
    await reportConcurrency(engine.db, options, {
      runs,
      start,
      isAllFinished,
      probe,
      fakeWhere: fake.where,
      load: { ...load, transactions },
    });
  } finally {
    await engine.close();
    await fake.close();
  }
}
