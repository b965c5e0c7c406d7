// The metrics SQL against a real Postgres: rows stored as the session engine stores them (tool
// messages with tool-result parts, turns with their requests, ended by an UPDATE), the roll-ups the
// triggers keep, and the report read from them, per scope and filter, with exact values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { bucketLowerMs, bucketUpperMs } from "./latency-buckets.ts";
import { rebuildMetrics } from "./rebuild.ts";
import { readMetricsReport, type MetricsReport } from "./report.ts";
import type { MetricsQuery } from "./sql.ts";

type Call = { name: string; ms: number; error?: string };
type TurnSeed = {
  provider: string;
  model: string;
  rounds: Call[][];
  requests: number;
  tokens: [number, number];
  status: "completed" | "failed";
  errorCode?: string;
};

let database: TestDatabase;
let alice: string;
let bob: string;
const chats: Record<string, string> = {};

function resultPart(call: Call, index: number) {
  const output = call.error ? { error: { code: call.error, message: "no" } } : "done";
  return {
    type: "tool-result",
    callId: `c${index}`,
    name: call.name,
    output,
    isError: !!call.error,
    durationMs: call.ms,
  };
}

async function seedChat(ownerId: string, title: string, turn: TurnSeed): Promise<string> {
  const { db } = database;
  const chat = await db.chatSession.create({ data: { ownerId, title } });
  const row = await db.turn.create({
    data: { sessionId: chat.id, userMessageId: "u", historySeq: 0, provider: turn.provider, model: turn.model },
  });
  for (const [seq, round] of turn.rounds.entries()) {
    await db.message.create({
      data: { sessionId: chat.id, turnId: row.id, seq: seq + 1, role: "tool", parts: round.map(resultPart) },
    });
  }
  for (let index = 0; index < turn.requests; index++) {
    await db.turnRequest.create({ data: { turnId: row.id, index, toolsRevision: 0, toolNames: [] } });
  }
  await db.turn.update({
    where: { id: row.id },
    data: {
      status: turn.status,
      endedAt: new Date(),
      inputTokens: turn.tokens[0],
      outputTokens: turn.tokens[1],
      ...(turn.errorCode && { error: { code: turn.errorCode, message: "limit" } }),
    },
  });
  return chat.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  alice = (await createTestUser(database.db, "Alice")).id;
  bob = (await createTestUser(database.db, "Bob")).id;
  chats.first = await seedChat(alice, "first", {
    provider: "anthropic",
    model: "claude-x",
    rounds: [
      [
        { name: "fs.read", ms: 100 },
        { name: "fs.write", ms: 3, error: "invalid_arguments" },
      ],
      [
        { name: "fs.write", ms: 120 },
        { name: "web.fetch", ms: 30_000, error: "timeout" },
      ],
    ],
    requests: 3,
    tokens: [300, 40],
    status: "completed",
  });
  chats.second = await seedChat(alice, "second", {
    provider: "openai",
    model: "gpt-x",
    rounds: [
      [
        { name: "fs.read", ms: 0, error: "denied" },
        { name: "fs.read", ms: 5, error: "cancelled" },
        { name: "fs.read", ms: 50, error: "tool_error" },
        { name: "fs.read", ms: 7, error: "unknown_tool" },
      ],
    ],
    requests: 2,
    tokens: [10, 5],
    status: "completed",
    errorCode: "step_limit",
  });
  chats.bobs = await seedChat(bob, "bob's", {
    provider: "anthropic",
    model: "claude-x",
    rounds: [[{ name: "fs.read", ms: 90 }]],
    requests: 2,
    tokens: [7, 3],
    status: "failed",
  });
});

afterAll(async () => {
  await database?.drop();
});

const report = (query: Partial<MetricsQuery>) =>
  readMetricsReport(database.pool, { days: 30, ownerId: alice, ...query });

/** Moves a tool's roll-up rows `days` back in time (day rows by days, month rows to their month). */
async function shiftDays(toolName: string, days: number) {
  await database.pool.query(
    `UPDATE "ToolCallDaily" SET day = CASE grain WHEN 'day' THEN day - $2::int
       ELSE date_trunc('month', day + (extract(day FROM now()) - 1)::int - $2::int)::date END
     WHERE "toolName" = $1`,
    [toolName, days],
  );
}

const month = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 7);

const tool = (result: MetricsReport, name: string) => result.tools.find((row) => row.toolName === name);

describe("metrics over stored rows", () => {
  it("counts one owner's tool calls per tool with outcomes, corrections and latency", async () => {
    const result = await report({});
    expect(result.tools.map((row) => [row.toolName, row.calls])).toEqual([
      ["fs.read", 5],
      ["fs.write", 2],
      ["web.fetch", 1],
    ]);
    expect(tool(result, "fs.read")).toMatchObject({
      connector: "fs",
      successRate: 0.2,
      errors: { toolError: 1, invalidArguments: 0, timeout: 0, denied: 1, cancelled: 1, other: 1 },
      errorRates: { toolError: 0.2, denied: 0.2, cancelled: 0.2, other: 0.2 },
      corrections: 0,
      meanMs: 162 / 5,
    });
    const write = tool(result, "fs.write")!;
    expect(write).toMatchObject({ successRate: 0.5, corrections: 1, errors: { invalidArguments: 1 } });
    // 3 ms falls in bucket 0 ([0, 5]), 120 ms in bucket 13: the median is the top of bucket 0, the
    // 95th percentile 90 % into bucket 13.
    expect(write.p50Ms).toBeCloseTo(5);
    expect(write.p95Ms).toBeCloseTo(bucketLowerMs(13) + 0.9 * (bucketUpperMs(13) - bucketLowerMs(13)));
    expect(tool(result, "web.fetch")).toMatchObject({
      successRate: 0,
      errors: { timeout: 1 },
      errorRates: { timeout: 1 },
    });
    expect(result.connectors.map((row) => [row.connector, row.calls, row.successRate])).toEqual([
      ["fs", 7, 2 / 7],
      ["web", 1, 0],
    ]);
  });

  it("sums turns, requests, tokens and step-limit turns per model and provider", async () => {
    const result = await report({});
    expect(result.models).toEqual([
      expect.objectContaining({
        provider: "anthropic",
        model: "claude-x",
        turns: 1,
        failedTurns: 0,
        requests: 3,
        requestsPerTurn: 3,
        inputTokens: 300,
        outputTokens: 40,
        stepLimitTurns: 0,
        tools: expect.objectContaining({ calls: 4, successRate: 0.5 }) as unknown,
      }),
      expect.objectContaining({
        provider: "openai",
        model: "gpt-x",
        turns: 1,
        requests: 2,
        stepLimitTurns: 1,
        tools: expect.objectContaining({ calls: 4, successRate: 0 }) as unknown,
      }),
    ]);
    expect(result.providers.map((row) => [row.provider, row.turns, row.inputTokens])).toEqual([
      ["anthropic", 1, 300],
      ["openai", 1, 10],
    ]);
    expect(result.timeline).toHaveLength(1);
    expect(result.timeline[0]).toMatchObject({ period: new Date().toISOString().slice(0, 10), calls: 8 });
  });

  it("shows an admin everyone's chats and a user only their own", async () => {
    const everyone = await report({ ownerId: null });
    expect(tool(everyone, "fs.read")?.calls).toBe(6);
    expect(everyone.models[0]).toMatchObject({ model: "claude-x", turns: 2, failedTurns: 1, requests: 5 });
    const bobs = await report({ ownerId: bob });
    expect(bobs.tools.map((row) => row.toolName)).toEqual(["fs.read"]);
    expect(await report({ ownerId: bob, chatId: chats.first })).toMatchObject({ tools: [], models: [] });
  });

  it("filters by chat, tool, connector and model with the same figures", async () => {
    const first = await report({ chatId: chats.first });
    expect(first.tools.map((row) => [row.toolName, row.calls, row.corrections])).toEqual([
      ["fs.write", 2, 1],
      ["fs.read", 1, 0],
      ["web.fetch", 1, 0],
    ]);
    expect(first.models.map((row) => [row.model, row.turns, row.requests])).toEqual([["claude-x", 1, 3]]);
    const whole = await report({});
    expect(tool(first, "fs.write")).toEqual(tool(whole, "fs.write"));
    expect((await report({ tool: "fs.write" })).tools.map((row) => row.toolName)).toEqual(["fs.write"]);
    expect((await report({ connector: "web" })).connectors.map((row) => row.connector)).toEqual(["web"]);
    const gpt = await report({ model: "gpt-x" });
    expect(gpt.tools.map((row) => [row.toolName, row.calls])).toEqual([["fs.read", 4]]);
    expect(gpt.models.map((row) => row.model)).toEqual(["gpt-x"]);
  });

  it("leaves out days before the period", async () => {
    await shiftDays("web.fetch", 3);
    try {
      expect(tool(await report({ days: 1 }), "web.fetch")).toBeUndefined();
      expect(tool(await report({ days: 7 }), "web.fetch")?.calls).toBe(1);
    } finally {
      await shiftDays("web.fetch", -3);
    }
  });

  it("reads whole months of a long period from month rows, once", async () => {
    await shiftDays("fs.write", 70);
    try {
      expect(tool(await report({ days: 30 }), "fs.write")).toBeUndefined();
      const year = await report({ days: 365 });
      expect(tool(year, "fs.write")).toMatchObject({ calls: 2, corrections: 1 });
      expect(year.tools.reduce((sum, row) => sum + row.calls, 0)).toBe(8);
      expect(year.timeline.map((row) => row.period)).toEqual([month(70), month(0)]);
    } finally {
      await shiftDays("fs.write", -70);
    }
  });

  it("rebuilds the same roll-ups from the stored rows", async () => {
    const before = await report({ ownerId: null });
    await rebuildMetrics(database.pool);
    expect(await report({ ownerId: null })).toEqual(before);
  });
});
