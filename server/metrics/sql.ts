// The aggregate queries, over the daily roll-ups (ToolCallDaily, TurnDaily: migration
// `tool_metrics`), or, for one chat, over its stored rows (the metrics_tool_calls and metrics_turns
// views) summed into the same columns. Every query is one statement with the filter as parameters:
// $1 first day, $2 owner (null: everyone), $3 model, $4 chat, and for tool calls $5 connector, $6 tool.
import type { SqlPool } from "../db/client.ts";
import { BUCKET_COUNT } from "./latency-buckets.ts";
import { periodStart, type MetricsFilter, type MetricsScope } from "./filter.ts";
import type { ToolSums, TurnSums } from "./figures.ts";

export type MetricsQuery = MetricsFilter & MetricsScope & { now?: Date };

const scopeFilters = `day >= $1::date AND ($2::text IS NULL OR "ownerId" = $2) AND ($3::text IS NULL OR model = $3)`;
const toolFilters = `${scopeFilters} AND ($5::text IS NULL OR connector = $5) AND ($6::text IS NULL OR "toolName" = $6)`;

const toolColumns = `day, "toolName", connector, provider, model, calls, "okCalls", "toolErrors", "invalidArgs",
  timeouts, denied, cancelled, "otherErrors", corrections, "durationMsSum", latency`;

const toolRollup = `SELECT ${toolColumns} FROM "ToolCallDaily" WHERE $4::text IS NULL AND ${toolFilters}`;

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
  FROM metrics_tool_calls WHERE "sessionId" = $4 AND ${toolFilters}
  GROUP BY day, "toolName", connector, provider, model`;

const turnRollup = `SELECT day, provider, model, turns, "failedTurns", requests, "inputTokens", "outputTokens",
  "stepLimitTurns" FROM "TurnDaily" WHERE $4::text IS NULL AND ${scopeFilters}`;

const turnsOfChat = `
  SELECT day, provider, model, count(*) AS turns, count(*) FILTER (WHERE status = 'failed') AS "failedTurns",
    sum(requests) AS requests, sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens",
    count(*) FILTER (WHERE "hitStepLimit") AS "stepLimitTurns"
  FROM metrics_turns WHERE "sessionId" = $4 AND ${scopeFilters}
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

function turnParameters(query: MetricsQuery): unknown[] {
  const { days, model, chatId, ownerId, now } = query;
  return [periodStart(days, now), ownerId, model ?? null, chatId ?? null];
}

function toolParameters(query: MetricsQuery): unknown[] {
  return [...turnParameters(query), query.connector ?? null, query.tool ?? null];
}

/** The tool grouping keys the report uses; each is a column list of the source rows. */
export type ToolGrouping = "tool" | "connector" | "model" | "provider" | "day";
const toolKeys: Record<ToolGrouping, string> = {
  tool: `"toolName", connector`,
  connector: "connector",
  model: "provider, model",
  provider: "provider",
  day: `to_char(day, 'YYYY-MM-DD') AS day`,
};
const groupKeys: Record<ToolGrouping, string> = { ...toolKeys, day: "1" };

export type Keyed<T> = T & Record<string, unknown>;

/** Tool-call sums per group, most calls first. */
export async function sumToolCalls(pool: SqlPool, query: MetricsQuery, by: ToolGrouping): Promise<Keyed<ToolSums>[]> {
  const source = query.chatId ? toolsOfChat : toolRollup;
  const order = by === "day" ? "1" : "calls DESC, 1";
  const sql = `SELECT ${toolKeys[by]}, ${toolSums} FROM (${source}) rows GROUP BY ${groupKeys[by]} ORDER BY ${order}`;
  const { rows } = await pool.query<Keyed<ToolSums>>(sql, toolParameters(query));
  return rows;
}

export type TurnGrouping = "model" | "provider";

/** Turn sums per model or provider, most turns first (the connector and tool filters do not apply). */
export async function sumTurns(pool: SqlPool, query: MetricsQuery, by: TurnGrouping): Promise<Keyed<TurnSums>[]> {
  const source = query.chatId ? turnsOfChat : turnRollup;
  const keys = by === "model" ? "provider, model" : "provider";
  const sql = `SELECT ${keys}, ${turnSums} FROM (${source}) rows GROUP BY ${keys} ORDER BY turns DESC, ${keys}`;
  const { rows } = await pool.query<Keyed<TurnSums>>(sql, turnParameters(query));
  return rows;
}

/** What the filters can choose from in the period and scope (ignoring the other filters). */
export async function listChoices(pool: SqlPool, query: MetricsQuery, userId: string) {
  const period = `day >= $1::date AND ($2::text IS NULL OR "ownerId" = $2)`;
  const { rows } = await pool.query<{ models: string[]; connectors: string[]; tools: string[] }>(
    `SELECT
       ARRAY(SELECT model FROM "ToolCallDaily" WHERE ${period} UNION SELECT model FROM "TurnDaily" WHERE ${period}
         ORDER BY 1) AS models,
       ARRAY(SELECT DISTINCT connector FROM "ToolCallDaily" WHERE ${period} ORDER BY 1) AS connectors,
       ARRAY(SELECT DISTINCT "toolName" FROM "ToolCallDaily" WHERE ${period} ORDER BY 1) AS tools`,
    [periodStart(query.days, query.now), query.ownerId],
  );
  const chats = await pool.query<{ id: string; title: string }>(
    `SELECT id, title FROM "ChatSession" WHERE "ownerId" = $1 ORDER BY "updatedAt" DESC LIMIT 50`,
    [userId],
  );
  return { ...rows[0]!, chats: chats.rows };
}
