// Figures of one level of the HTTP bench (N streams at once), from what the clients recorded
// (sse-stream.ts) and what the server and Postgres did meanwhile: the app's CPU time (its whole
// process tree, from /proc) and the database's committed transactions and row writes
// (pg_stat_database deltas). Prints; never fails.
import { readFileSync } from "node:fs";

import pg from "pg";

import type { StreamRun } from "./sse-stream.ts";
import { summarize } from "./stats.ts";

export type LevelFigures = {
  streams: number;
  firstTokenP50: number;
  firstTokenP99: number;
  chunksPerEvent: number;
  /** first -> last text event of each stream: median and the shortest (the most bunched). */
  spreadP50: number;
  spreadMin: number;
  gapP99: number;
  lost: number;
  errors: string[];
  transactions: number | null;
  rowWrites: number | null;
  /** App CPU time over the level's wall time (1 = one core busy). */
  cpuShare: number | null;
  cpuMsPerChunk: number | null;
  wallMs: number;
};

const TICKS_PER_SECOND = 100;

/** CPU time (ms) used so far by these processes (utime + stime). */
export function cpuTimeMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export type DatabaseCounters = { transactions: number; rowWrites: number };

/** Committed transactions and rows inserted + updated in the database of `url` so far. */
export async function databaseCounters(url: string): Promise<DatabaseCounters> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ xacts: string; writes: string }>(
      `SELECT xact_commit AS xacts, tup_inserted + tup_updated AS writes FROM pg_stat_database WHERE datname = current_database()`,
    );
    return { transactions: Number(rows[0]?.xacts ?? 0), rowWrites: Number(rows[0]?.writes ?? 0) };
  } finally {
    await client.end();
  }
}

export function levelFigures(
  runs: StreamRun[],
  measured: { wallMs: number; cpuMs: number | null; before: DatabaseCounters | null; after: DatabaseCounters | null },
): LevelFigures {
  const firstTokens = runs.flatMap((run) => (run.firstTokenMs === null ? [] : [run.firstTokenMs]));
  const gaps: number[] = [];
  const spreads: number[] = [];
  let chunks = 0;
  let events = 0;
  for (const run of runs) {
    const carrying = run.arrivals.filter((arrival) => arrival.chunks > 0);
    for (let at = 1; at < carrying.length; at++) gaps.push(carrying[at]!.at - carrying[at - 1]!.at);
    if (carrying.length > 0) spreads.push(carrying.at(-1)!.at - carrying[0]!.at);
    chunks += carrying.reduce((sum, arrival) => sum + arrival.chunks, 0);
    events += carrying.length;
  }
  const first = summarize(firstTokens);
  const spread = summarize(spreads);
  const { before, after } = measured;
  return {
    streams: runs.length,
    firstTokenP50: first.p50,
    firstTokenP99: first.p99,
    chunksPerEvent: events === 0 ? 0 : chunks / events,
    spreadP50: spread.p50,
    spreadMin: spreads.length ? Math.min(...spreads) : 0,
    gapP99: summarize(gaps).p99,
    lost: runs.filter((run) => !run.isComplete).length,
    errors: [...new Set(runs.flatMap((run) => (run.error ? [run.error] : [])))],
    transactions: before && after ? after.transactions - before.transactions : null,
    rowWrites: before && after ? after.rowWrites - before.rowWrites : null,
    cpuShare: measured.cpuMs === null ? null : measured.cpuMs / measured.wallMs,
    cpuMsPerChunk: measured.cpuMs === null || chunks === 0 ? null : measured.cpuMs / chunks,
    wallMs: measured.wallMs,
  };
}
