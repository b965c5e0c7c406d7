// `npm run bench:metrics`: the metrics aggregates over a year of a team's data (1,000,000 tool
// calls, bench/metrics-seed.ts) in a scratch Postgres database: seeding, rebuilding the roll-ups,
// then each report (server/metrics/report.ts: 3 aggregate queries at once) 20 times, and the cost
// the trigger adds to storing one tool message. Figures only; the target is < 200 ms p50.
import { createTestDatabase } from "../e2e/support/testbeds/database.ts";
import type { SqlPool } from "../server/db/client.ts";
import { rebuildMetrics } from "../server/metrics/rebuild.ts";
import { readMetricsReport } from "../server/metrics/report.ts";
import type { MetricsQuery } from "../server/metrics/sql.ts";
import { SEED, seedYear } from "./metrics-seed.ts";
import { ms, printTable, summarize, time } from "./stats.ts";

const RUNS = 20;

const queries: [string, MetricsQuery][] = [
  ["admin, everyone, 365 days", { days: 365, ownerId: null }],
  ["admin, everyone, 30 days", { days: 30, ownerId: null }],
  ["admin, one tool, 365 days", { days: 365, ownerId: null, tool: "conn3.tool1" }],
  ["admin, one model + connector, 365 days", { days: 365, ownerId: null, model: "model-2", connector: "conn4" }],
  ["user, own chats, 365 days", { days: 365, ownerId: "u7" }],
  ["user, one chat", { days: 365, ownerId: "u7", chatId: "c2555" }],
];

async function sample(run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm the cache and the plan
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index++) samples.push((await time(run))[1]);
  return samples;
}

export async function runMetricsBench(): Promise<void> {
  const database = await createTestDatabase({ max: 8 });
  try {
    const [, seedMs] = await time(() => seedYear(database.pool));
    const [, rebuildMs] = await time(() => rebuildMetrics(database.pool));
    const { rows } = await database.pool.query<{ calls: string; dayRows: string; monthRows: string; turns: string }>(
      `SELECT (SELECT sum(calls) FROM "ToolCallDaily" WHERE grain = 'day') AS calls,
         (SELECT count(*) FROM "ToolCallDaily" WHERE grain = 'day') AS "dayRows",
         (SELECT count(*) FROM "ToolCallDaily" WHERE grain = 'month') AS "monthRows",
         (SELECT count(*) FROM "TurnDaily") AS turns`,
    );
    const counts = rows[0]!;
    printTable(
      `Metrics: seeded data (${SEED.users} users, ${SEED.chats} chats)`,
      ["step", "value"],
      [
        ["tool calls in the roll-up", counts.calls],
        ["ToolCallDaily day rows", counts.dayRows],
        ["ToolCallDaily month rows", counts.monthRows],
        ["TurnDaily rows (both grains)", counts.turns],
        ["seed (SQL, triggers off)", ms(seedMs, 0)],
        ["rebuild roll-ups from stored rows", ms(rebuildMs, 0)],
      ],
    );
    const table: string[][] = [];
    for (const [label, query] of queries) {
      const s = summarize(await sample(() => readMetricsReport(database.pool, query)));
      table.push([label, String(s.n), ms(s.p50), ms(s.p95), ms(s.max)]);
    }
    const insert = await sample(() => insertToolMessage(database.pool));
    const s = summarize(insert);
    table.push(["store one tool message (4 calls) + trigger", String(s.n), ms(s.p50), ms(s.p95), ms(s.max)]);
    printTable(
      "Metrics: one report (3 aggregate queries at once) over 1 M tool calls",
      ["query", "n", "p50", "p95", "max"],
      table,
    );
  } finally {
    await database.drop();
  }
}

let inserted = 0;

/** A tool message of 4 calls in turn t8 (chat c1), as the session engine stores one. */
async function insertToolMessage(pool: SqlPool): Promise<void> {
  inserted += 1;
  const parts = Array.from({ length: 4 }, (_, index) => ({
    type: "tool-result",
    callId: `n${index}`,
    name: `conn${index}.tool1`,
    output: "done",
    isError: false,
    durationMs: 40 + index,
  }));
  await pool.query(
    `INSERT INTO "Message" (id, "sessionId", "turnId", seq, role, parts, "updatedAt")
     VALUES ($1, 'c1', 't8', $2, 'tool', $3::jsonb, now())`,
    [`bench-${inserted}`, 10_000_000 + inserted, JSON.stringify(parts)],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runMetricsBench();
