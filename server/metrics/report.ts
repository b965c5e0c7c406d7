// One metrics report: the figures per tool, connector, model and provider and per day over the
// period, for the scope and filters given, read with sql.ts and shaped with figures.ts. The page,
// the CSV export and the router all read this.
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
export type DayRow = ToolFigures & { day: string };

export type MetricsReport = {
  tools: ToolRow[];
  connectors: ConnectorRow[];
  models: ModelRow[];
  providers: ProviderRow[];
  days: DayRow[];
};

const noTurns: TurnSums = { turns: 0, failedTurns: 0, requests: 0, inputTokens: 0, outputTokens: 0, stepLimitTurns: 0 };

/** Turn rows joined with the tool rows of the same key; a key in only one side still gets a row. */
function joinByKey<K extends string>(
  turns: Keyed<TurnSums>[],
  tools: Keyed<ToolSums>[],
  keyOf: (row: Record<string, unknown>) => K,
) {
  const toolsByKey = new Map(tools.map((row) => [keyOf(row), row]));
  const keys = [...new Set([...turns.map(keyOf), ...tools.map(keyOf)])];
  const turnsByKey = new Map(turns.map((row) => [keyOf(row), row]));
  return keys.map((key) => {
    const turn = turnsByKey.get(key);
    const tool = toolsByKey.get(key);
    const source = (turn ?? tool)!;
    return { source, figures: turnFigures(turn ?? noTurns), tools: tool ? toolFigures(tool) : null };
  });
}

export async function readMetricsReport(pool: SqlPool, query: MetricsQuery): Promise<MetricsReport> {
  const [byTool, byConnector, byModel, byProvider, byDay, turnsByModel, turnsByProvider] = await Promise.all([
    sumToolCalls(pool, query, "tool"),
    sumToolCalls(pool, query, "connector"),
    sumToolCalls(pool, query, "model"),
    sumToolCalls(pool, query, "provider"),
    sumToolCalls(pool, query, "day"),
    sumTurns(pool, query, "model"),
    sumTurns(pool, query, "provider"),
  ]);
  const modelKey = (row: Record<string, unknown>) => `${String(row.provider)}\u0000${String(row.model)}`;
  const providerKey = (row: Record<string, unknown>) => String(row.provider);
  return {
    tools: byTool.map((row) => ({
      toolName: String(row.toolName),
      connector: String(row.connector),
      ...toolFigures(row),
    })),
    connectors: byConnector.map((row) => ({ connector: String(row.connector), ...toolFigures(row) })),
    models: joinByKey(turnsByModel, byModel, modelKey).map(({ source, figures, tools }) => ({
      provider: String(source.provider),
      model: String(source.model),
      ...figures,
      tools,
    })),
    providers: joinByKey(turnsByProvider, byProvider, providerKey).map(({ source, figures, tools }) => ({
      provider: String(source.provider),
      ...figures,
      tools,
    })),
    days: byDay.map((row) => ({ day: String(row.day), ...toolFigures(row) })),
  };
}
