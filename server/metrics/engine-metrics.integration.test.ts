// The roll-ups as the session engine fills them (real Postgres, the session manager, the real AI SDK
// provider against the fake provider): a turn that calls a built-in tool and then answers shows in
// the report as one successful call of that tool and one turn of two requests with its tokens.
import { afterAll, beforeAll, expect, it } from "vitest";

import { exposeToolName } from "../core/tool-names.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeIdFor,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { readMetricsReport } from "./report.ts";

let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

it("counts the tool calls and the turn of a real run", async () => {
  const { db, fake, manager, database } = engine;
  const { userId, sessionId } = await createUserWithSession(db);
  fake.clear();
  fake.script(
    fakeIdFor("anthropic"),
    {
      steps: [{ type: "tool-call", name: exposeToolName("builtin.current_time"), args: {} }],
      usage: { inputTokens: 120, outputTokens: 8 },
    },
    { steps: [{ type: "text", text: "It is noon." }], usage: { inputTokens: 150, outputTokens: 20 } },
  );
  const { turnId } = await manager.startTurn(userId, sessionId, "Time?", {
    provider: "anthropic",
    model: TEST_MODELS.anthropic,
  });
  expect((await waitForTurnEnd(db, turnId)).status).toBe("completed");

  const report = await readMetricsReport(database.pool, { days: 1, ownerId: userId });
  expect(report.tools).toEqual([
    expect.objectContaining({ toolName: "builtin.current_time", connector: "builtin", calls: 1, successRate: 1 }),
  ]);
  expect(report.models).toEqual([
    expect.objectContaining({
      provider: "anthropic",
      model: TEST_MODELS.anthropic,
      turns: 1,
      requests: 2,
      inputTokens: 270,
      outputTokens: 28,
    }),
  ]);
  expect(await readMetricsReport(database.pool, { days: 1, ownerId: userId, chatId: sessionId })).toEqual(report);
});
