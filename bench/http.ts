// The HTTP bench (`npm run bench -- --only http`, quick with BENCH_QUICK=1 or --quick): Patchbay's
// production build driven over HTTP + SSE as browsers drive it, beside the fake provider called
// directly (the floor), in one run on this machine. Levels: one stream at a time (time to first
// text, gap p99), then 50, 100 and 200 streams started at once (chunks per SSE event, first -> last
// chunk, first token p50 / p99, streams that lost a chunk, Postgres transactions and row writes,
// app CPU). The full run repeats Patchbay with 2 worker processes (PATCHBAY_WORKERS=2). Every wait
// is bounded (--timeout per level). Prints the table shape; never fails on a figure.
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";

import { startChildFake, type RunningFake } from "./child-fake.ts";
import { cpuTimeMs, databaseCounters, levelFigures, type LevelFigures } from "./http-figures.ts";
import { createBrowser, startApp, type RunningApp } from "./http-app.ts";
import type { BenchOptions } from "./options.ts";
import { streamDirect, streamThroughPatchbay, type StreamRun } from "./sse-stream.ts";
import { printNotes, printTable, sleep } from "./stats.ts";

const APP_PORT = 3190;
const STATS_FLUSH_MS = 1_500; // Postgres publishes a backend's counters about once a second

type Column = { name: string; single: LevelFigures; levels: LevelFigures[] };

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function measureLevel(
  count: number,
  start: (index: number, startGate: Promise<void>) => Promise<StreamRun>,
  app: RunningApp | null,
): Promise<LevelFigures> {
  const startGate = gate();
  const pending = Array.from({ length: count }, (_, index) => start(index, startGate.opened));
  await sleep(Math.min(3_000, 200 + count * 10)); // every subscription open, as tabs already are
  const before = app ? await databaseCounters(app.database.url) : null;
  const cpuBefore = app ? cpuTimeMs(app.pids()) : 0;
  const started = performance.now();
  startGate.open();
  const runs = await Promise.all(pending);
  const wallMs = performance.now() - started;
  const cpuMs = app ? cpuTimeMs(app.pids()) - cpuBefore : null;
  if (app) await sleep(STATS_FLUSH_MS);
  const after = app ? await databaseCounters(app.database.url) : null;
  return levelFigures(runs, { wallMs, cpuMs, before, after });
}

/** One stream at a time, `samples` times: the single-stream figures (first token, gap p99). */
async function measureSingle(samples: number, run: (index: number) => Promise<StreamRun>) {
  const runs: StreamRun[] = [];
  for (let index = 0; index < samples; index++) runs.push(await run(index));
  return levelFigures(runs, { wallMs: 1, cpuMs: null, before: null, after: null });
}

async function measurePatchbay(fake: RunningFake, options: BenchOptions, workers: number): Promise<Column> {
  console.log(`  http: starting the production build with ${workers} worker(s)…`);
  const app = await startApp(fake, { port: APP_PORT, workers });
  console.log(
    `  http: serving at ${app.url}; ${options.httpSamples} single streams, then ${options.httpLevels.join(", ")} at once`,
  );
  const stream = { chunks: options.chunks, timeoutMs: options.timeoutMs };
  try {
    const browsers = await Promise.all(
      Array.from({ length: options.httpSamples + 2 }, (_, index) => createBrowser(app, `single${index}`)),
    );
    // Warm-up: the first requests compile routes and open connections, which a running server has done.
    for (const browser of browsers.slice(0, 2)) await streamThroughPatchbay(app.url, browser, 0, stream);
    const single = await measureSingle(options.httpSamples, (index) =>
      streamThroughPatchbay(app.url, browsers[index + 2]!, index, stream),
    );
    const levels: LevelFigures[] = [];
    for (const count of options.httpLevels) {
      console.log(`  http: ${count} streams at once…`);
      const users = await Promise.all(
        Array.from({ length: count }, (_, index) => createBrowser(app, `l${count}u${index}`)),
      );
      levels.push(
        await measureLevel(
          count,
          (index, startGate) => streamThroughPatchbay(app.url, users[index]!, index, { ...stream, startGate }),
          app,
        ),
      );
    }
    if ([single, ...levels].some((level) => level.errors.length > 0))
      console.log(`  http: the app's last output lines:\n${app.output().split("\n").slice(-15).join("\n")}`);
    return { name: `Patchbay, ${workers} worker${workers === 1 ? "" : "s"}`, single, levels };
  } finally {
    await app.stop();
  }
}

async function measureDirect(fake: RunningFake, options: BenchOptions): Promise<Column> {
  const stream = { chunks: options.chunks, timeoutMs: options.timeoutMs };
  await streamDirect(fake.baseUrls.anthropic, 0, stream);
  const single = await measureSingle(options.httpSamples, (index) =>
    streamDirect(fake.baseUrls.anthropic, index, stream),
  );
  const levels: LevelFigures[] = [];
  for (const count of options.httpLevels) {
    levels.push(
      await measureLevel(
        count,
        (index, startGate) => streamDirect(fake.baseUrls.anthropic, index, { ...stream, startGate }),
        null,
      ),
    );
  }
  return { name: "direct to the fake", single, levels };
}

const fmt = (value: number | null, unit = "", digits = 0) =>
  value === null ? "—" : `${value.toLocaleString("en-US", { maximumFractionDigits: digits })}${unit}`;

function printColumns(columns: Column[], options: BenchOptions): void {
  const ideal = (options.chunks - 1) * options.chunkDelayMs;
  const rows: string[][] = [
    ["time to first text delta, p50", ...columns.map((c) => fmt(c.single.firstTokenP50, " ms", 1))],
    ["time to first text delta, p99", ...columns.map((c) => fmt(c.single.firstTokenP99, " ms", 1))],
    [
      "added by the app, p50",
      ...columns.map((c) => fmt(c.single.firstTokenP50 - columns.at(-1)!.single.firstTokenP50, " ms", 1)),
    ],
    [`one stream, ${options.chunkDelayMs} ms pacing: gap p99`, ...columns.map((c) => fmt(c.single.gapP99, " ms", 1))],
  ];
  options.httpLevels.forEach((count, at) => {
    const level = (c: Column) => c.levels[at]!;
    rows.push(
      [`${count} streams: chunks per SSE event`, ...columns.map((c) => fmt(level(c).chunksPerEvent, "", 2))],
      [
        `${count} streams: first→last chunk p50 / min (ideal ${ideal} ms)`,
        ...columns.map((c) => `${fmt(level(c).spreadP50)} / ${fmt(level(c).spreadMin)} ms`),
      ],
      [`${count} streams: gap p99`, ...columns.map((c) => fmt(level(c).gapP99, " ms"))],
      [
        `${count} streams: first token p50 / p99`,
        ...columns.map((c) => `${fmt(level(c).firstTokenP50)} / ${fmt(level(c).firstTokenP99)} ms`),
      ],
      [`${count} streams: lost (incomplete streams)`, ...columns.map((c) => fmt(level(c).lost))],
      [
        `${count} streams: Postgres transactions / row writes`,
        ...columns.map((c) => `${fmt(level(c).transactions)} / ${fmt(level(c).rowWrites)}`),
      ],
      [
        `${count} streams: app CPU (cores busy) / µs per chunk`,
        ...columns.map((c) => `${fmt(level(c).cpuShare, "", 2)} / ${fmt((level(c).cpuMsPerChunk ?? 0) * 1000)}`),
      ],
    );
  });
  printTable(
    `HTTP + SSE against the production build (${options.chunks} chunks, ${options.chunkDelayMs} ms apart; ${cpus().length} cores)`,
    ["figure (client side)", ...columns.map((c) => c.name)],
    rows,
  );
  const errors = columns.flatMap((c) =>
    [c.single, ...c.levels].flatMap((level) => level.errors.map((e) => `${c.name}: ${e}`)),
  );
  printNotes([
    `single-stream rows: ${options.httpSamples} sequential streams after 2 warm-up streams`,
    "first token: from sending (POST chat.send, or the provider request) to the first SSE event with text",
    "chunks per SSE event: the script's chunks / SSE events that carried text (1.0 = every chunk its own event)",
    "Postgres: pg_stat_database deltas of the bench database over the level (the counters flush about once a second)",
    ...errors.slice(0, 10).map((error) => `error: ${error}`),
  ]);
}

export async function runHttpBench(options: BenchOptions): Promise<void> {
  const fake = await startChildFake(options.chunks, options.chunkDelayMs);
  try {
    const columns: Column[] = [];
    for (const workers of options.httpWorkers) columns.push(await measurePatchbay(fake, options, workers));
    columns.push(await measureDirect(fake, options));
    printColumns(columns, options);
  } finally {
    await fake.close();
  }
}
