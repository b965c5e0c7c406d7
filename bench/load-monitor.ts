// What the machine and the engine go through while the concurrency bench runs: the pg pool's
// waiting clients, event-loop delay, this process's and the whole machine's CPU, pool checkouts,
// and the turns' leases (a streaming turn whose lease has lapsed would be marked interrupted by
// another app instance's sweep). Leases are sampled on a connection of their own, so the sample
// does not queue behind the pool it observes.
import { cpus } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

import pg from "pg";

import type { BenchEngine } from "./bench-engine.ts";

export type LoadFigures = {
  poolSize: number;
  maxWaiting: number;
  maxConnections: number;
  loopDelayP50: number;
  loopDelayP99: number;
  loopDelayMax: number;
  /** Process CPU time / wall time (1 = one core busy the whole time). */
  cpuShare: number;
  /** Share of all cores busy (every process on the machine), and the number of cores. */
  machineBusy: number;
  cores: number;
  checkouts: number;
  /** Most streaming turns seen at once with a lapsed lease, and the longest overdue lease (ms). */
  maxLapsedLeases: number;
  maxLeaseOverdueMs: number;
};

/** Cumulative CPU time of the whole machine (every process, Postgres included), in ms. */
function machineCpuTimes(): { busy: number; total: number } {
  return cpus().reduce(
    (sum, { times }) => {
      const total = times.user + times.nice + times.sys + times.idle + times.irq;
      return { busy: sum.busy + total - times.idle, total: sum.total + total };
    },
    { busy: 0, total: 0 },
  );
}

async function watchLeases(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = { maxLapsedLeases: 0, maxLeaseOverdueMs: 0 };
  const sample = async () => {
    const { rows } = await client.query<{ lapsed: number; overdue: number | null }>(
      `SELECT count(*)::int AS lapsed, (extract(epoch FROM max(now() - "leaseExpiresAt")) * 1000)::float8 AS overdue
         FROM "Turn" WHERE status = 'streaming' AND "leaseExpiresAt" < now()`,
    );
    seen.maxLapsedLeases = Math.max(seen.maxLapsedLeases, rows[0]?.lapsed ?? 0);
    seen.maxLeaseOverdueMs = Math.max(seen.maxLeaseOverdueMs, rows[0]?.overdue ?? 0);
  };
  let pending = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(sample);
  }, 500);
  return async () => {
    clearInterval(timer);
    await pending;
    await client.end();
    return seen;
  };
}

export async function startLoadMonitor(engine: BenchEngine) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const peaks = { maxWaiting: 0, maxConnections: 0 };
  const sampler = setInterval(() => {
    peaks.maxWaiting = Math.max(peaks.maxWaiting, engine.pool.waitingCount);
    peaks.maxConnections = Math.max(peaks.maxConnections, engine.pool.totalCount);
  }, 10);
  const stopLeases = await watchLeases(engine.database.url);
  const cpu = process.cpuUsage();
  const machine = machineCpuTimes();
  const checkoutsBefore = engine.checkouts.length;
  const start = performance.now();
  loop.enable();
  return async (): Promise<LoadFigures> => {
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - start;
    const machineAfter = machineCpuTimes();
    loop.disable();
    clearInterval(sampler);
    return {
      poolSize: engine.pool.options.max ?? 10,
      ...peaks,
      loopDelayP50: loop.percentile(50) / 1e6,
      loopDelayP99: loop.percentile(99) / 1e6,
      loopDelayMax: loop.max / 1e6,
      cpuShare: (used.user + used.system) / 1000 / wall,
      machineBusy: (machineAfter.busy - machine.busy) / (machineAfter.total - machine.total),
      cores: cpus().length,
      checkouts: engine.checkouts.length - checkoutsBefore,
      ...(await stopLeases()),
    };
  };
}
