// One metrics report: the figures per tool, connector, model and provider and over time for the
// period, scope and filters given. sql.ts sums the roll-ups per tool and model (and per day or
// month); the coarser groups are summed here, histograms included, then shaped with figures.ts.
// The page, the CSV export and the router all read this.
import type { SqlPool } from "../db/client.ts";
import {
  toolFigures,
  turnFigures,
  type ToolFigures,
  type ToolSums,
  type TurnFigures,
  type TurnSums,
} from "./figures.ts";
import { sumToolCalls, sumTurns, type Keyed, type MetricsQuery } from "./sql.ts";

export type ToolRow = ToolFigures & { toolName: string; connector: string };
export type ConnectorRow = ToolFigures & { connector: string };
/** A model's or provider's turns, and the tool calls made in its turns (null: none). */
export type ModelRow = TurnFigures & { provider: string; model: string; tools: ToolFigures | null };
export type ProviderRow = TurnFigures & { provider: string; tools: ToolFigures | null };
/** `period`: a day (YYYY-MM-DD), or a month (YYYY-MM) for periods over 31 days. */
export type TimeRow = ToolFigures & { period: string };

export type MetricsReport = {
  tools: ToolRow[];
  connectors: ConnectorRow[];
  models: ModelRow[];
  providers: ProviderRow[];
  timeline: TimeRow[];
};

const toolSumKeys = [
  "calls",
  "okCalls",
  "toolErrors",
  "invalidArgs",
  "timeouts",
  "denied",
  "cancelled",
  "otherErrors",
  "corrections",
  "durationMsSum",
] as const;
const turnSumKeys = ["turns", "failedTurns", "requests", "inputTokens", "outputTokens", "stepLimitTurns"] as const;

function addToolSums(total: ToolSums | undefined, row: ToolSums): ToolSums {
  if (!total) return { ...row, latency: [...row.latency] };
  for (const key of toolSumKeys) total[key] += row[key];
  row.latency.forEach((count, index) => (total.latency[index] = (total.latency[index] ?? 0) + count));
  return total;
}

function addTurnSums(total: TurnSums | undefined, row: TurnSums): TurnSums {
  if (!total) return { ...row };
  for (const key of turnSumKeys) total[key] += row[key];
  return total;
}

/** Rows summed per key, in first-seen order. */
function sumBy<T, S>(rows: T[], keyOf: (row: T) => string, add: (total: S | undefined, row: T) => S) {
  const totals = new Map<string, { first: T; sums: S }>();
  for (const row of rows) {
    const key = keyOf(row);
    const entry = totals.get(key);
    totals.set(key, { first: entry?.first ?? row, sums: add(entry?.sums, row) });
  }
  return [...totals.values()];
}

const byCallsDesc = (a: { calls: number }, b: { calls: number }) => b.calls - a.calls;
const byTurnsDesc = (a: { turns: number }, b: { turns: number }) => b.turns - a.turns;
const noTurns: TurnSums = { turns: 0, failedTurns: 0, requests: 0, inputTokens: 0, outputTokens: 0, stepLimitTurns: 0 };

/** Turn sums and tool sums joined by key; a key on only one side still gets a row. */
function joinTurnsAndTools(turns: Keyed<TurnSums>[], tools: Keyed<ToolSums>[], keyOf: (row: Keyed<object>) => string) {
  const turnTotals = new Map(sumBy(turns, keyOf, addTurnSums).map((entry) => [keyOf(entry.first), entry]));
  const toolTotals = new Map(sumBy(tools, keyOf, addToolSums).map((entry) => [keyOf(entry.first), entry]));
  const keys = [...new Set([...turnTotals.keys(), ...toolTotals.keys()])];
  return keys.map((key) => {
    const turn = turnTotals.get(key);
    const tool = toolTotals.get(key);
    return {
      first: (turn?.first ?? tool?.first)!,
      figures: turnFigures(turn?.sums ?? noTurns),
      tools: tool ? toolFigures(tool.sums) : null,
    };
  });
}

export async function readMetricsReport(pool: SqlPool, query: MetricsQuery): Promise<MetricsReport> {
  const [detail, time, turns] = await Promise.all([
    sumToolCalls(pool, query, "detail"),
    sumToolCalls(pool, query, "time"),
    sumTurns(pool, query),
  ]);
  const modelKey = (row: Keyed<object>) => `${String(row.provider)}\u0000${String(row.model)}`;
  const providerKey = (row: Keyed<object>) => String(row.provider);
  const tools = sumBy(detail, (row) => String(row.toolName), addToolSums);
  const connectors = sumBy(detail, (row) => String(row.connector), addToolSums);
  return {
    tools: tools
      .map(({ first, sums }) => ({
        toolName: String(first.toolName),
        connector: String(first.connector),
        ...toolFigures(sums),
      }))
      .sort(byCallsDesc),
    connectors: connectors
      .map(({ first, sums }) => ({ connector: String(first.connector), ...toolFigures(sums) }))
      .sort(byCallsDesc),
    models: joinTurnsAndTools(turns, detail, modelKey)
      .map(({ first, figures, tools }) => ({
        provider: String(first.provider),
        model: String(first.model),
        ...figures,
        tools,
      }))
      .sort(byTurnsDesc),
    providers: joinTurnsAndTools(turns, detail, providerKey)
      .map(({ first, figures, tools }) => ({ provider: String(first.provider), ...figures, tools }))
      .sort(byTurnsDesc),
    timeline: time.map((row) => ({ period: String(row.period), ...toolFigures(row) })),
  };
}
