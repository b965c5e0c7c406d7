"use client";
// The metrics page's charts (recharts): tool latency p50/p95 over time, success rate per tool, and
// tokens in/out per model. Each chart is a figure with a caption; the table below holds the same
// numbers for anyone who cannot read a chart.
import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

import type { MetricsReport } from "@/server/metrics/report.ts";

import { formatMs } from "./format.ts";

function ChartFigure({ id, caption, children }: { id: string; caption: string; children: ReactNode }) {
  return (
    <figure className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid={id}>
      <figcaption className="text-sm font-medium">{caption}</figcaption>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children as React.ReactElement}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const axis = { fontSize: 12, stroke: "#71717a" };

export function MetricsCharts({ report }: { report: MetricsReport }) {
  const latency = report.timeline.map((row) => ({ period: row.period, p50: row.p50Ms, p95: row.p95Ms }));
  const success = report.tools.map((row) => ({ tool: row.toolName, success: (row.successRate ?? 0) * 100 }));
  const tokens = report.models.map((row) => ({ model: row.model, input: row.inputTokens, output: row.outputTokens }));
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <ChartFigure id="chart-latency" caption="Tool latency over time (p50, p95)">
        <LineChart data={latency}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="period" tick={axis} />
          <YAxis tick={axis} tickFormatter={(value: number) => formatMs(value)} width={64} />
          <Tooltip formatter={(value) => formatMs(Number(value))} />
          <Legend />
          <Line type="monotone" dataKey="p50" name="p50" stroke="#2563eb" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="p95" name="p95" stroke="#dc2626" dot={false} isAnimationActive={false} />
        </LineChart>
      </ChartFigure>
      <ChartFigure id="chart-success" caption="Success rate per tool (%)">
        <BarChart data={success}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="tool" tick={axis} />
          <YAxis tick={axis} domain={[0, 100]} width={40} />
          <Tooltip formatter={(value) => `${Number(value).toFixed(1)} %`} />
          <Bar dataKey="success" name="success %" fill="#16a34a" isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
      <ChartFigure id="chart-tokens" caption="Tokens per model">
        <BarChart data={tokens}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="model" tick={axis} />
          <YAxis tick={axis} width={64} />
          <Tooltip />
          <Legend />
          <Bar dataKey="input" name="tokens in" fill="#7c3aed" isAnimationActive={false} />
          <Bar dataKey="output" name="tokens out" fill="#ea580c" isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
