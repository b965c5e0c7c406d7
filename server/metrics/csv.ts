// The metrics report as CSV: one row per tool, connector, model and provider (the `level` column
// says which), with the same figures as the page. Rates are fractions (0..1), durations ms. Pure.
import type { ToolFigures, TurnFigures } from "./figures.ts";
import type { MetricsReport } from "./report.ts";

const header = [
  "level",
  "provider",
  "model",
  "connector",
  "tool",
  "calls",
  "success_rate",
  "tool_error_rate",
  "invalid_arguments_rate",
  "timeout_rate",
  "denied_rate",
  "cancelled_rate",
  "other_error_rate",
  "corrections",
  "p50_ms",
  "p95_ms",
  "turns",
  "failed_turns",
  "requests_per_turn",
  "input_tokens",
  "output_tokens",
  "step_limit_turns",
];

type Cell = string | number | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? String(Number(value.toFixed(6))) : value;
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function toolCells(figures: ToolFigures | null): Cell[] {
  if (!figures) return Array.from({ length: 11 }, () => null);
  const rates = figures.errorRates;
  return [
    figures.calls,
    figures.successRate,
    rates.toolError,
    rates.invalidArguments,
    rates.timeout,
    rates.denied,
    rates.cancelled,
    rates.other,
    figures.corrections,
    figures.p50Ms,
    figures.p95Ms,
  ];
}

function turnCells(row: TurnFigures): Cell[] {
  return [row.turns, row.failedTurns, row.requestsPerTurn, row.inputTokens, row.outputTokens, row.stepLimitTurns];
}

export function reportToCsv(report: MetricsReport): string {
  const noTurns: Cell[] = [null, null, null, null, null, null];
  const rows: Cell[][] = [
    ...report.tools.map((row) => ["tool", null, null, row.connector, row.toolName, ...toolCells(row), ...noTurns]),
    ...report.connectors.map((row) => ["connector", null, null, row.connector, null, ...toolCells(row), ...noTurns]),
    ...report.models.map((row) => [
      "model",
      row.provider,
      row.model,
      null,
      null,
      ...toolCells(row.tools),
      ...turnCells(row),
    ]),
    ...report.providers.map((row) => [
      "provider",
      row.provider,
      null,
      null,
      null,
      ...toolCells(row.tools),
      ...turnCells(row),
    ]),
  ];
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}
