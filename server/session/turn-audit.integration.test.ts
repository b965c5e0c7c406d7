// The turn details audit per model request, against real parts (Postgres, the session manager, the
// real AI SDK providers, the fake provider): besides the tool revision and tool names, each request
// records the tokens the provider reported and how long it took, in the stored row, in the history
// DTO the browser loads, and live in a `request.finished` event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exposeToolName } from "../core/tool-names.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeIdFor,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import { getSessionHistory } from "./history.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
/**
 * The tokens a request records. The OpenAI-compatible model is created without `includeUsage`
 * (server/providers/model-factory.ts), so it never asks for `stream_options.include_usage` and its
 * requests record none.
 */
const expectedTokens = (provider: ProviderId, inputTokens: number, outputTokens: number) =>
  provider === "openai-compatible" ? { inputTokens: null, outputTokens: null } : { inputTokens, outputTokens };
let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

describe.each(providerIds)("per-request usage on %s", (provider) => {
  it("is stored with each request, in the turn DTO and in request.finished events", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    const fakeId = fakeIdFor(provider);
    fake.clear();
    fake.script(
      fakeId,
      {
        steps: [{ type: "tool-call", name: TIME_TOOL, args: {} }],
        usage: { inputTokens: 120, outputTokens: 8 },
        delayMs: 40,
      },
      { steps: [{ type: "text", text: "It is noon." }], usage: { inputTokens: 150, outputTokens: 20 } },
    );
    const { turnId } = await manager.startTurn(userId, sessionId, "Time?", { provider, model: TEST_MODELS[provider] });
    expect((await waitForTurnEnd(db, turnId)).status).toBe("completed");

    const history = await getSessionHistory(db, userId, sessionId);
    const requests = history.turns.find((turn) => turn.id === turnId)!.requests;
    expect(requests).toMatchObject([
      { index: 0, ...expectedTokens(provider, 120, 8), finishReason: "tool-calls" },
      { index: 1, ...expectedTokens(provider, 150, 20), finishReason: "stop" },
    ]);
    expect(requests[0]!.durationMs).toBeGreaterThanOrEqual(40);
    expect(requests[1]!.durationMs).toBeGreaterThanOrEqual(0);

    const finished = await db.sessionEvent.findMany({
      where: { turnId, type: "request.finished" },
      orderBy: { id: "asc" },
    });
    expect(finished.map((event) => event.data)).toEqual(
      requests.map(({ index, finishReason, inputTokens, outputTokens, durationMs }) => ({
        index,
        finishReason,
        inputTokens,
        outputTokens,
        durationMs,
      })),
    );
  });
});
