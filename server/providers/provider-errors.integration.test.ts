// Provider failures as a user meets them, through the real session engine, the real AI SDK providers
// and the fake provider's scripted HTTP and mid-stream errors: a rate limit that names its wait is
// retried and the answer arrives; one that persists ends the turn saying how long to wait; an
// overload after some text is not retried (the partial answer stays); a conversation too long for
// the model says so; and a provider error that echoes the API key never puts it in the stored turn
// error or a log line.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { ProviderId } from "../core/canonical.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeBaseUrl,
  messageText,
  sessionMessages,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { createLanguageModel } from "./model-factory.ts";

const SECRET_KEY = "sk-patchbay-test-SECRET-0123456789";
let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine({
    resolveModel: ({ provider, model }) =>
      Promise.resolve({
        model: createLanguageModel({
          provider,
          modelId: model,
          apiKey: SECRET_KEY,
          baseURL: fakeBaseUrl(engine.fake, provider),
        }),
        nativeTools: true,
      }),
  });
});

afterAll(async () => {
  await engine.close();
});

async function runTurn(provider: ProviderId, text = "Hello?") {
  const { db, manager } = engine;
  const { userId, sessionId } = await createUserWithSession(db);
  const { turnId } = await manager.startTurn(userId, sessionId, text, { provider, model: TEST_MODELS[provider] });
  const turn = await waitForTurnEnd(db, turnId);
  const messages = await sessionMessages(db, sessionId);
  return { turn, error: turn.error as { code: string; message: string } | null, answer: messages.at(-1)! };
}

describe("provider errors on a turn", () => {
  it("retries a rate limit that asks to wait briefly, and the answer arrives", async () => {
    const { fake } = engine;
    fake.clear();
    fake.script("anthropic", {
      error: {
        status: 429,
        message: "Number of requests has exceeded your rate limit",
        headers: { "retry-after": "1" },
      },
    });
    fake.script("anthropic", { steps: [{ type: "text", text: "Here after the wait." }] });
    const started = Date.now();
    const { turn, answer } = await runTurn("anthropic");
    expect(turn.status).toBe("completed");
    expect(messageText(answer)).toBe("Here after the wait.");
    expect(fake.requests("anthropic").map((r) => r.status)).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("ends the turn with how long to wait when the rate limit persists", async () => {
    const { fake } = engine;
    fake.clear();
    const limited = { error: { status: 429, message: "rate limited", headers: { "retry-after": "120" } } };
    fake.script("anthropic", limited, limited, limited);
    const { turn, error } = await runTurn("anthropic");
    expect(turn.status).toBe("failed");
    expect(error?.message).toMatch(/rate-limiting.*try again in 2 min/);
    expect(fake.requests("anthropic")).toHaveLength(1); // a wait that long is not slept through
  });

  it("says how long to wait when the Codex-style stream fails with 'try again in Ns'", async () => {
    const { fake } = engine;
    fake.clear();
    const limited = {
      error: {
        midStreamAfterChunks: 0,
        type: "rate_limit_exceeded",
        message: "Rate limit reached for gpt-5.1 on tokens per min. Please try again in 95s.",
      },
    };
    fake.script("openai", limited, limited, limited);
    const { turn, error } = await runTurn("openai");
    expect(turn.status).toBe("failed");
    expect(error?.message).toMatch(/rate-limiting.*try again in 95 s/);
    expect(error?.message).not.toContain("gpt-5.1 on tokens"); // the provider's own words stay out
    expect(fake.requests("openai")).toHaveLength(1);
  });

  it("keeps the partial answer and does not retry when the provider is overloaded mid-stream", async () => {
    const { fake } = engine;
    fake.clear();
    fake.script("anthropic", {
      steps: [{ type: "text", text: "The first part of the answer is here and then" }],
      error: { midStreamAfterChunks: 4, type: "overloaded_error", message: "Overloaded" },
    });
    const { turn, error, answer } = await runTurn("anthropic");
    expect(turn.status).toBe("failed");
    expect(error?.message).toMatch(/overloaded/i);
    expect(messageText(answer)).toBe("The first part of");
    expect(fake.requests("anthropic")).toHaveLength(1);
  });

  it.each([
    [
      "anthropic",
      { status: 400, type: "invalid_request_error", message: "prompt is too long: 210351 tokens > 200000 maximum" },
    ],
    [
      "google",
      {
        status: 400,
        type: "INVALID_ARGUMENT",
        message: "The input token count (1210351) exceeds the maximum number of tokens allowed (1048576).",
      },
    ],
    [
      "openai",
      {
        status: 400,
        type: "context_length_exceeded",
        message: "Your input exceeds the context window of this model.",
      },
    ],
  ] as const)("says the conversation is too long for the model (%s)", async (provider, httpError) => {
    const { fake } = engine;
    fake.clear();
    fake.script(provider, { error: httpError });
    const { turn, error } = await runTurn(provider);
    expect(turn.status).toBe("failed");
    expect(error?.message).toMatch(/conversation is too long for this model/);
    expect(fake.requests(provider)).toHaveLength(1);
  });

  it("never stores or logs the API key a provider error echoes back", async () => {
    const { fake } = engine;
    fake.clear();
    const logged: unknown[] = [];
    const spies = (["log", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(...args)),
    );
    try {
      fake.script("openai", {
        error: { status: 401, type: "invalid_api_key", message: `Incorrect API key provided: Bearer ${SECRET_KEY}.` },
      });
      const rejected = await runTurn("openai");
      fake.script("openai", {
        steps: [{ type: "text", text: "Partial" }],
        error: { midStreamAfterChunks: 1, message: `upstream saw authorization: Bearer ${SECRET_KEY}` },
      });
      const midStream = await runTurn("openai");
      for (const { turn } of [rejected, midStream]) {
        expect(turn.status).toBe("failed");
        expect(JSON.stringify(turn.error)).not.toContain("SECRET");
      }
      expect(rejected.error?.message).toMatch(/rejected the API key/);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(
      logged
        .map((value) => (value instanceof Error ? `${value.stack} ${String(value.cause)}` : JSON.stringify(value)))
        .join("\n"),
    ).not.toContain("SECRET");
  });
});
