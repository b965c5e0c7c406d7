// The exports over stored rows (real Postgres): the Prometheus text, read back with a real parser
// (parse-prometheus-text-format), and the CSV, both with exact values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { parsePrometheusText, sampleValue } from "../../e2e/support/prometheus-text.ts";
import { reportToCsv } from "./csv.ts";
import { readPrometheusText } from "./prometheus.ts";
import { readMetricsReport } from "./report.ts";

let database: TestDatabase;
let ownerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  ownerId = (await createTestUser(db, "Ops")).id;
  const chat = await db.chatSession.create({ data: { ownerId, title: "ops" } });
  const turn = await db.turn.create({
    data: { sessionId: chat.id, userMessageId: "u", historySeq: 0, provider: "google", model: "gemini-x" },
  });
  const part = (name: string, ms: number, code?: string) => ({
    type: "tool-result",
    callId: `c${ms}`,
    name,
    output: code ? { error: { code, message: "no" } } : "ok",
    isError: !!code,
    durationMs: ms,
  });
  await db.message.create({
    data: {
      sessionId: chat.id,
      turnId: turn.id,
      seq: 1,
      role: "tool",
      parts: [
        part('my "db".query', 4),
        part('my "db".query', 2_000, "timeout"),
        part("web.fetch", 30, "invalid_arguments"),
      ],
    },
  });
  await db.message.create({
    data: { sessionId: chat.id, turnId: turn.id, seq: 2, role: "tool", parts: [part("web.fetch", 40)] },
  });
  await db.turnRequest.createMany({
    data: [0, 1, 2].map((index) => ({ turnId: turn.id, index, toolsRevision: 0, toolNames: [] })),
  });
  await db.turn.update({
    where: { id: turn.id },
    data: { status: "completed", endedAt: new Date(), inputTokens: 1200, outputTokens: 34 },
  });
  // A second turn still streaming, its last event 30 s ago: the stream lag.
  const streaming = await db.turn.create({
    data: { sessionId: chat.id, userMessageId: "u2", historySeq: 2, provider: "google", model: "gemini-x" },
  });
  await db.sessionEvent.create({
    data: {
      sessionId: chat.id,
      turnId: streaming.id,
      type: "text.delta",
      data: {},
      createdAt: new Date(Date.now() - 30_000),
    },
  });
});

afterAll(async () => {
  await database?.drop();
});

describe("the Prometheus scrape", () => {
  it("parses, with counters for turns, requests, tokens and tool calls by outcome", async () => {
    const text = await readPrometheusText(database.pool);
    const families = parsePrometheusText(text);
    const model = { provider: "google", model: "gemini-x" };
    expect(sampleValue(families, "patchbay_turns_total", model)).toBe(1);
    expect(sampleValue(families, "patchbay_model_requests_total", model)).toBe(3);
    expect(sampleValue(families, "patchbay_tokens_total", { ...model, direction: "input" })).toBe(1200);
    expect(sampleValue(families, "patchbay_tokens_total", { ...model, direction: "output" })).toBe(34);
    const db = { connector: 'my "db"' };
    expect(sampleValue(families, "patchbay_tool_calls_total", { ...db, outcome: "ok" })).toBe(1);
    expect(sampleValue(families, "patchbay_tool_calls_total", { ...db, outcome: "timeout" })).toBe(1);
    expect(sampleValue(families, "patchbay_tool_calls_total", { connector: "web", outcome: "invalid_arguments" })).toBe(
      1,
    );
    expect(sampleValue(families, "patchbay_tool_call_corrections_total", { connector: "web" })).toBe(1);
    expect(sampleValue(families, "patchbay_turns_streaming")).toBe(1);
    const lag = sampleValue(families, "patchbay_stream_lag_seconds")!;
    expect(lag).toBeGreaterThanOrEqual(29);
    expect(lag).toBeLessThan(120);
    // The parser keeps a histogram's buckets (of one series) but not its labels, sum or count: those
    // are read from the text.
    const histogram = families.find((family) => family.name === "patchbay_tool_call_duration_seconds");
    expect(histogram?.type).toBe("HISTOGRAM");
    expect(histogram?.metrics[0]?.buckets?.["+Inf"]).toBe("2");
    expect(text).toContain('patchbay_tool_call_duration_seconds_bucket{connector="web",le="0.024134"} 0\n');
    expect(text).toContain('patchbay_tool_call_duration_seconds_bucket{connector="web",le="0.0407865"} 2\n');
    expect(text).toContain('patchbay_tool_call_duration_seconds_sum{connector="web"} 0.07\n');
    expect(text).toContain('patchbay_tool_call_duration_seconds_count{connector="web"} 2\n');
  });
});

describe("the CSV export", () => {
  it("holds one row per tool, connector, model and provider with the page's figures", async () => {
    const report = await readMetricsReport(database.pool, { days: 7, ownerId });
    const lines = reportToCsv(report).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^level,provider,model,connector,tool,calls,success_rate,/);
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual([
      "tool",
      "tool",
      "connector",
      "connector",
      "model",
      "provider",
    ]);
    expect(lines).toContain(
      `tool,,,"my ""db""","my ""db"".query",2,0.5,0,0,0.5,0,0,0,0,5,${report.tools[0]!.p95Ms!.toFixed(6).replace(/\.?0+$/, "")},,,,,,`,
    );
    expect(lines).toContain(
      "model,google,gemini-x,,,4,0.5,0,0.25,0.25,0,0,0,1," +
        [report.models[0]!.tools!.p50Ms, report.models[0]!.tools!.p95Ms].map((v) => Number(v!.toFixed(6))).join(",") +
        ",1,0,3,1200,34,0",
    );
  });
});
