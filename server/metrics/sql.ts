// The aggregate queries, over the daily roll-ups (ToolCallDaily, TurnDaily: migration
// `tool_metrics`), or, for one chat, over its stored rows (the metrics_tool_calls and metrics_turns
// views) summed into the same columns. Every query is one statement with the filter as parameters:
// $1 first day, $2 first whole month, $3 this month, $4 owner (null: everyone), $5 model, $6 chat,
// and for tool calls $7 connector, $8 tool.
import type { SqlPool } from "../db/client.ts";
import { BUCKET_COUNT } from "./latency-buckets.ts";
import { periodStart, type MetricsFilter, type MetricsScope } from "./filter.ts";
import type { ToolSums, TurnSums } from "./figures.ts";

export type MetricsQuery = MetricsFilter & MetricsScope & { now?: Date };

// Roll-up rows of the period: whole months inside it from month rows ($2: the first whole month,
// $3: this month), the days before and after those from day rows (a period inside this month has
// $2 > $3: its days are all in the last range). Three disjoint ranges of the primary key (grain,
// day, ...), so Postgres reads only the rows it sums.
const periodRows = `((grain = 'month' AND day >= $2::date AND day < $3::date)
  OR (grain = 'day' AND day >= $1::date AND day < least($2::date, $3::date))
  OR (grain = 'day' AND day >= greatest($1::date, $3::date)))`;
// One chat reads its own rows by day (no month rows): $2 and $3 are only typed there, never null.
const chatPeriod = `day >= $1::date AND $2::date IS NOT NULL AND $3::date IS NOT NULL`;
const scopeFilters = `($4::text IS NULL OR "ownerId" = $4) AND ($5::text IS NULL OR model = $5)`;
const toolFilters = `${scopeFilters} AND ($7::text IS NULL OR connector = $7) AND ($8::text IS NULL OR "toolName" = $8)`;

const toolColumns = `day, "toolName", connector, provider, model, calls, "okCalls", "toolErrors", "invalidArgs",
  timeouts, denied, cancelled, "otherErrors", corrections, "durationMsSum", latency`;

const toolRollup = `SELECT ${toolColumns} FROM "ToolCallDaily" WHERE $6::text IS NULL AND ${periodRows} AND ${toolFilters}`;

const toolsOfChat = `
  SELECT day, "toolName", connector, provider, model, count(*) AS calls,
    count(*) FILTER (WHERE outcome = 'ok') AS "okCalls",
    count(*) FILTER (WHERE outcome = 'tool_error') AS "toolErrors",
    count(*) FILTER (WHERE outcome = 'invalid_arguments') AS "invalidArgs",
    count(*) FILTER (WHERE outcome = 'timeout') AS timeouts,
    count(*) FILTER (WHERE outcome = 'denied') AS denied,
    count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled,
    count(*) FILTER (WHERE outcome NOT IN ('ok', 'tool_error', 'invalid_arguments', 'timeout', 'denied', 'cancelled'))
      AS "otherErrors",
    count(*) FILTER (WHERE "isCorrection") AS corrections,
    sum("durationMs") AS "durationMsSum",
    metrics_histogram(metrics_latency_bucket("durationMs")) AS latency
  FROM metrics_tool_calls WHERE "sessionId" = $6 AND ${chatPeriod} AND ${toolFilters}
  GROUP BY day, "toolName", connector, provider, model`;

const turnRollup = `SELECT day, provider, model, turns, "failedTurns", requests, "inputTokens", "outputTokens",
  "stepLimitTurns" FROM "TurnDaily" WHERE $6::text IS NULL AND ${periodRows} AND ${scopeFilters}`;

const turnsOfChat = `
  SELECT day, provider, model, count(*) AS turns, count(*) FILTER (WHERE status = 'failed') AS "failedTurns",
    sum(requests) AS requests, sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens",
    count(*) FILTER (WHERE "hitStepLimit") AS "stepLimitTurns"
  FROM metrics_turns WHERE "sessionId" = $6 AND ${chatPeriod} AND ${scopeFilters}
  GROUP BY day, provider, model`;

const latencySums = Array.from({ length: BUCKET_COUNT }, (_, index) => `sum(latency[${index + 1}])`).join(", ");

const toolSums = `sum(calls)::float8 AS calls, sum("okCalls")::float8 AS "okCalls",
  sum("toolErrors")::float8 AS "toolErrors", sum("invalidArgs")::float8 AS "invalidArgs",
  sum(timeouts)::float8 AS timeouts, sum(denied)::float8 AS denied, sum(cancelled)::float8 AS cancelled,
  sum("otherErrors")::float8 AS "otherErrors", sum(corrections)::float8 AS corrections,
  sum("durationMsSum")::float8 AS "durationMsSum", ARRAY[${latencySums}]::float8[] AS latency`;

const turnSums = `sum(turns)::float8 AS turns, sum("failedTurns")::float8 AS "failedTurns",
  sum(requests)::float8 AS requests, sum("inputTokens")::float8 AS "inputTokens",
  sum("outputTokens")::float8 AS "outputTokens", sum("stepLimitTurns")::float8 AS "stepLimitTurns"`;

/** The first whole month in the period and the first day of this month (UTC), as YYYY-MM-DD. */
function monthBounds(start: string, now: Date): [string, string] {
  const [year, month, day] = start.split("-").map(Number) as [number, number, number];
  const firstWhole = new Date(Date.UTC(year, day === 1 ? month - 1 : month, 1));
  const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return [firstWhole.toISOString().slice(0, 10), thisMonth.toISOString().slice(0, 10)];
}

function turnParameters(query: MetricsQuery): unknown[] {
  const { days, model, chatId, ownerId } = query;
  const now = query.now ?? new Date();
  const start = periodStart(days, now);
  return [start, ...monthBounds(start, now), ownerId, model ?? null, chatId ?? null];
}

function toolParameters(query: MetricsQuery): unknown[] {
  return [...turnParameters(query), query.connector ?? null, query.tool ?? null];
}

/**
 * "detail": per tool and model (the report sums these into tools, connectors, models, providers);
 * "time": per day, or per month for periods over 31 days. Both ordered by their keys.
 */
export type ToolGrouping = "detail" | "time";

export type Keyed<T> = T & Record<string, unknown>;

/** Tool-call sums per group. */
export async function sumToolCalls(pool: SqlPool, query: MetricsQuery, by: ToolGrouping): Promise<Keyed<ToolSums>[]> {
  const source = query.chatId ? toolsOfChat : toolRollup;
  const format = query.days > 31 ? "YYYY-MM" : "YYYY-MM-DD";
  const keys = by === "detail" ? `"toolName", connector, provider, model` : `to_char(day, '${format}') AS period`;
  const groups = by === "detail" ? `"toolName", connector, provider, model` : "1";
  const sql = `SELECT ${keys}, ${toolSums} FROM (${source}) rows GROUP BY ${groups} ORDER BY ${groups}`;
  const { rows } = await pool.query<Keyed<ToolSums>>(sql, toolParameters(query));
  return rows;
}

/** Turn sums per model (the connector and tool filters do not apply). */
export async function sumTurns(pool: SqlPool, query: MetricsQuery): Promise<Keyed<TurnSums>[]> {
  const source = query.chatId ? turnsOfChat : turnRollup;
  const sql = `SELECT provider, model, ${turnSums} FROM (${source}) rows GROUP BY provider, model ORDER BY 1, 2`;
  const { rows } = await pool.query<Keyed<TurnSums>>(sql, turnParameters(query));
  return rows;
}

/** What the filters can choose from in the period and scope (ignoring the other filters). */
export async function listChoices(pool: SqlPool, query: MetricsQuery, userId: string) {
  const where = `${periodRows} AND ($4::text IS NULL OR "ownerId" = $4)`;
  const { rows } = await pool.query<{ models: string[]; connectors: string[]; tools: string[] }>(
    `SELECT
       ARRAY(SELECT model FROM "ToolCallDaily" WHERE ${where} UNION SELECT model FROM "TurnDaily" WHERE ${where}
         ORDER BY 1) AS models,
       ARRAY(SELECT DISTINCT connector FROM "ToolCallDaily" WHERE ${where} ORDER BY 1) AS connectors,
       ARRAY(SELECT DISTINCT "toolName" FROM "ToolCallDaily" WHERE ${where} ORDER BY 1) AS tools`,
    turnParameters(query).slice(0, 4),
  );
  const chats = await pool.query<{ id: string; title: string }>(
    `SELECT id, title FROM "ChatSession" WHERE "ownerId" = $1 ORDER BY "updatedAt" DESC LIMIT 50`,
    [userId],
  );
  return { ...rows[0]!, chats: chats.rows };
}
