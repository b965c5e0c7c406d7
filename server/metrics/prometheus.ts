// The operator's scrape (GET /metrics): Prometheus text format 0.0.4 with everyone's figures since
// the start, read from the month rows of the roll-ups (they hold every call), plus two live gauges
// of streaming turns. Counters: turns (ended, failed, hit the step limit), model requests, tokens in
// and out per provider and model; tool calls per connector and outcome, corrections after invalid
// arguments, and the tool-call duration as a histogram (the roll-ups' buckets). Gauges: turns
// streaming now, and the stream lag: the longest a streaming turn has gone without writing an event.
import type { SqlPool } from "../db/client.ts";
import { bucketUpperMs } from "./latency-buckets.ts";

type Labels = Record<string, string>;
type Sample = { labels: Labels; value: number };
type Family = { name: string; help: string; type: "counter" | "gauge" | "histogram"; samples: Sample[] };

const escapeLabel = (value: string) => value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");

function formatLabels(labels: Labels, suffix = ""): string {
  const entries = Object.entries(labels).map(([key, value]) => `${key}="${escapeLabel(value)}"`);
  return entries.length === 0 ? suffix : `{${entries.join(",")}}${suffix}`;
}

/** Families as Prometheus text; a histogram's samples carry their series name in `labels.__name`. */
export function renderPrometheus(families: Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`);
    for (const { labels, value } of family.samples) {
      const { __name = family.name, ...rest } = labels;
      lines.push(`${__name}${formatLabels(rest)} ${Number.isFinite(value) ? value : 0}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

const outcomes = [
  ["okCalls", "ok"],
  ["toolErrors", "tool_error"],
  ["invalidArgs", "invalid_arguments"],
  ["timeouts", "timeout"],
  ["denied", "denied"],
  ["cancelled", "cancelled"],
  ["otherErrors", "other"],
] as const;

type ToolRow = Record<(typeof outcomes)[number][0] | "corrections" | "durationMsSum" | "calls", number> & {
  connector: string;
  latency: number[];
};

async function toolFamilies(pool: SqlPool): Promise<Family[]> {
  const sums = outcomes.map(([column]) => `sum("${column}")::float8 AS "${column}"`).join(", ");
  const latency = Array.from({ length: 40 }, (_, index) => `sum(latency[${index + 1}])`).join(", ");
  const { rows } = await pool.query<ToolRow>(
    `SELECT connector, ${sums}, sum(calls)::float8 AS calls, sum(corrections)::float8 AS corrections,
       sum("durationMsSum")::float8 AS "durationMsSum", ARRAY[${latency}]::float8[] AS latency
     FROM "ToolCallDaily" WHERE grain = 'month' GROUP BY connector ORDER BY connector`,
  );
  const histogram: Sample[] = rows.flatMap((row) => histogramSamples(row));
  return [
    {
      name: "patchbay_tool_calls_total",
      help: "Tool calls by connector and outcome.",
      type: "counter",
      samples: rows.flatMap((row) =>
        outcomes.map(([column, outcome]) => ({ labels: { connector: row.connector, outcome }, value: row[column] })),
      ),
    },
    {
      name: "patchbay_tool_call_corrections_total",
      help: "Tool calls that succeeded right after the same tool's invalid_arguments in the previous round.",
      type: "counter",
      samples: rows.map((row) => ({ labels: { connector: row.connector }, value: row.corrections })),
    },
    {
      name: "patchbay_tool_call_duration_seconds",
      help: "Tool call durations.",
      type: "histogram",
      samples: histogram,
    },
  ];
}

function histogramSamples(row: ToolRow): Sample[] {
  const name = "patchbay_tool_call_duration_seconds";
  let cumulative = 0;
  const buckets = row.latency.slice(0, -1).map((count, index) => {
    cumulative += count;
    const le = String(Number((bucketUpperMs(index) / 1000).toPrecision(6)));
    return { labels: { __name: `${name}_bucket`, connector: row.connector, le }, value: cumulative };
  });
  return [
    ...buckets,
    { labels: { __name: `${name}_bucket`, connector: row.connector, le: "+Inf" }, value: row.calls },
    { labels: { __name: `${name}_sum`, connector: row.connector }, value: row.durationMsSum / 1000 },
    { labels: { __name: `${name}_count`, connector: row.connector }, value: row.calls },
  ];
}

type TurnRow = {
  provider: string;
  model: string;
  turns: number;
  failedTurns: number;
  stepLimitTurns: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
};

async function turnFamilies(pool: SqlPool): Promise<Family[]> {
  const { rows } = await pool.query<TurnRow>(
    `SELECT provider, model, sum(turns)::float8 AS turns, sum("failedTurns")::float8 AS "failedTurns",
       sum("stepLimitTurns")::float8 AS "stepLimitTurns", sum(requests)::float8 AS requests,
       sum("inputTokens")::float8 AS "inputTokens", sum("outputTokens")::float8 AS "outputTokens"
     FROM "TurnDaily" WHERE grain = 'month' GROUP BY provider, model ORDER BY provider, model`,
  );
  const per = (name: string, help: string, read: (row: TurnRow) => number): Family => ({
    name,
    help,
    type: "counter",
    samples: rows.map((row) => ({ labels: { provider: row.provider, model: row.model }, value: read(row) })),
  });
  return [
    per("patchbay_turns_total", "Turns that ended.", (row) => row.turns),
    per("patchbay_turns_failed_total", "Turns that ended failed.", (row) => row.failedTurns),
    per("patchbay_turns_step_limit_total", "Turns that hit the step limit.", (row) => row.stepLimitTurns),
    per("patchbay_model_requests_total", "Model requests of ended turns.", (row) => row.requests),
    {
      name: "patchbay_tokens_total",
      help: "Tokens of ended turns, in and out.",
      type: "counter",
      samples: rows.flatMap((row) => [
        { labels: { provider: row.provider, model: row.model, direction: "input" }, value: row.inputTokens },
        { labels: { provider: row.provider, model: row.model, direction: "output" }, value: row.outputTokens },
      ]),
    },
  ];
}

async function streamFamilies(pool: SqlPool): Promise<Family[]> {
  const { rows } = await pool.query<{ streaming: number; lag: number }>(
    `SELECT count(*)::float8 AS streaming, coalesce(max(extract(epoch FROM (now() AT TIME ZONE 'UTC') -
       coalesce((SELECT max(e."createdAt") FROM "SessionEvent" e WHERE e."sessionId" = t."sessionId"
         AND e."turnId" = t.id), t."startedAt"))), 0)::float8 AS lag
     FROM "Turn" t WHERE t.status = 'streaming'`,
  );
  const { streaming, lag } = rows[0]!;
  return [
    {
      name: "patchbay_turns_streaming",
      help: "Turns streaming now.",
      type: "gauge",
      samples: [{ labels: {}, value: streaming }],
    },
    {
      name: "patchbay_stream_lag_seconds",
      help: "The longest a streaming turn has now gone without writing an event (0 when none streams).",
      type: "gauge",
      samples: [{ labels: {}, value: Math.max(0, lag) }],
    },
  ];
}

export async function readPrometheusText(pool: SqlPool): Promise<string> {
  const families = await Promise.all([turnFamilies(pool), toolFamilies(pool), streamFamilies(pool)]);
  return renderPrometheus(families.flat());
}
