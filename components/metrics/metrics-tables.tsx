"use client";
// The metrics page's tables: per tool (calls, success, errors by kind, corrections, latency) and per
// model (turns, requests per turn, tokens, step-limit turns, its tool calls). Sortable by any column.
import type { ModelRow, ToolRow } from "@/server/metrics/report.ts";

import { formatCount, formatMs, formatRate, formatRatio } from "./format.ts";
import { SortableTable, type Column } from "./sortable-table.tsx";

const text = <Row,>(key: string, label: string, read: (row: Row) => string): Column<Row> => ({
  key,
  label,
  sortValue: read,
  show: read,
  isText: true,
});
const number = <Row,>(
  key: string,
  label: string,
  read: (row: Row) => number | null,
  show: (value: number | null) => string,
) => ({
  key,
  label,
  sortValue: read,
  show: (row: Row) => show(read(row)),
});

const toolColumns: Column<ToolRow>[] = [
  text("tool", "Tool", (row) => row.toolName),
  text("connector", "Connector", (row) => row.connector),
  number("calls", "Calls", (row) => row.calls, formatCount),
  number("success", "Success", (row) => row.successRate, formatRate),
  number("toolError", "Tool error", (row) => row.errorRates.toolError, formatRate),
  number("invalid", "Invalid args", (row) => row.errorRates.invalidArguments, formatRate),
  number("timeout", "Timeout", (row) => row.errorRates.timeout, formatRate),
  number("denied", "Denied", (row) => row.errorRates.denied, formatRate),
  number("cancelled", "Cancelled", (row) => row.errorRates.cancelled, formatRate),
  number("other", "Other errors", (row) => row.errorRates.other, formatRate),
  number("corrections", "Corrected", (row) => row.corrections, formatCount),
  number("p50", "p50", (row) => row.p50Ms, formatMs),
  number("p95", "p95", (row) => row.p95Ms, formatMs),
];

const modelColumns: Column<ModelRow>[] = [
  text("provider", "Provider", (row) => row.provider),
  text("model", "Model", (row) => row.model),
  number("turns", "Turns", (row) => row.turns, formatCount),
  number("requestsPerTurn", "Requests / turn", (row) => row.requestsPerTurn, formatRatio),
  number("inputTokens", "Tokens in", (row) => row.inputTokens, formatCount),
  number("outputTokens", "Tokens out", (row) => row.outputTokens, formatCount),
  number("stepLimit", "Hit step limit", (row) => row.stepLimitTurns, formatCount),
  number("failed", "Failed turns", (row) => row.failedTurns, formatCount),
  number("toolCalls", "Tool calls", (row) => row.tools?.calls ?? 0, formatCount),
  number("toolSuccess", "Tool success", (row) => row.tools?.successRate ?? null, formatRate),
  number("toolP95", "Tool p95", (row) => row.tools?.p95Ms ?? null, formatMs),
];

export function ToolTable({ rows }: { rows: ToolRow[] }) {
  return (
    <SortableTable
      caption="Per tool"
      columns={toolColumns}
      rows={rows}
      rowKey={(row) => row.toolName}
      testId="tool-table"
    />
  );
}

export function ModelTable({ rows }: { rows: ModelRow[] }) {
  return (
    <SortableTable
      caption="Per model"
      columns={modelColumns}
      rows={rows}
      rowKey={(row) => `${row.provider}/${row.model}`}
      testId="model-table"
    />
  );
}
