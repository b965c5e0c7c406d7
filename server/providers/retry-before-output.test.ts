// The retry policy on a model: a failure before any output is retried (after the wait the provider
// asked for, or a backoff), a failure after output never is, long waits and incurable kinds are not
// slept through, and what leaves the wrapper is final even for the AI SDK's own maxRetries.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { createProviderStreamError } from "@ai-sdk/provider-utils";
import { APICallError, streamText } from "ai";
import { convertArrayToReadableStream, convertReadableStreamToArray, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";

import { retryDelayMs, withRetryBeforeOutput, type RetryPolicy } from "./retry-before-output.ts";

type Part = LanguageModelV4StreamPart;
type Attempt = Part[] | Error;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const answer = (text: string): Part[] => [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: text },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, usage },
];
const overloaded = createProviderStreamError({
  message: "Overloaded",
  type: "overloaded_error",
  statusCode: 529,
  data: undefined,
});
const rateLimited = (retryAfter: string) =>
  new APICallError({
    message: "rate limited",
    url: "https://api.example.test",
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders: { "retry-after": retryAfter },
  });

function scripted(attempts: Attempt[], policy: Partial<RetryPolicy> = {}) {
  const waits: number[] = [];
  let calls = 0;
  const model = new MockLanguageModelV4({
    doStream: () => {
      const attempt = attempts[Math.min(calls++, attempts.length - 1)]!;
      if (attempt instanceof Error) return Promise.reject(attempt);
      return Promise.resolve({ stream: convertArrayToReadableStream(attempt) });
    },
  });
  const wrapped = withRetryBeforeOutput(model, {
    maxRetries: 2,
    initialDelayMs: 100,
    maxWaitMs: 20_000,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...policy,
  });
  const stream = async () => {
    const result = await wrapped.doStream({ prompt: [] });
    return convertReadableStreamToArray(result.stream);
  };
  return { wrapped, stream, waits, calls: () => calls };
}

describe("withRetryBeforeOutput", () => {
  it("retries an HTTP rate limit after the wait the provider asked for", async () => {
    const model = scripted([rateLimited("3"), answer("hello")]);
    expect(await model.stream()).toEqual(answer("hello"));
    expect(model.waits).toEqual([3000]);
    expect(model.calls()).toBe(2);
  });

  it("retries an error event that arrives before any output, with exponential backoff", async () => {
    const failed: Part[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "error", error: overloaded },
    ];
    const model = scripted([failed, failed, answer("finally")]);
    expect(await model.stream()).toEqual(answer("finally"));
    expect(model.waits).toEqual([100, 200]);
  });

  it("never retries an error that follows output: the partial answer and the error pass through", async () => {
    const partial: Part[] = [...answer("partial").slice(0, 3), { type: "error", error: overloaded }];
    const model = scripted([partial, answer("never")]);
    expect(await model.stream()).toEqual(partial);
    expect(model.calls()).toBe(1);
  });

  it("gives up after maxRetries and passes the last failure on", async () => {
    const failed: Part[] = [{ type: "error", error: overloaded }];
    const model = scripted([failed]);
    expect(await model.stream()).toEqual(failed);
    expect(model.calls()).toBe(3);
  });

  it("does not sleep through a long retry-after, and marks the error final for the SDK", async () => {
    const model = scripted([rateLimited("120"), answer("never")]);
    const error = await model.stream().catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(429);
    expect((error as APICallError).isRetryable).toBe(false);
    expect(model.calls()).toBe(1);

    const sdk = scripted([rateLimited("120"), answer("never")]);
    const result = streamText({ model: sdk.wrapped, prompt: "hi", maxRetries: 3, onError: () => undefined });
    for await (const part of result.fullStream) void part;
    expect(sdk.calls()).toBe(1);
  });

  it("does not retry what another attempt cannot cure", () => {
    const policy: RetryPolicy = { maxRetries: 2, initialDelayMs: 100, maxWaitMs: 20_000 };
    const tooLong = { type: "error", error: { type: "invalid_request_error", message: "prompt is too long" } };
    expect(retryDelayMs(tooLong, 0, policy)).toBeUndefined();
    expect(retryDelayMs({ error: { code: "usage_limit_reached", message: "x" } }, 0, policy)).toBeUndefined();
    expect(retryDelayMs(overloaded, 0, policy)).toBe(100);
    expect(retryDelayMs(overloaded, 2, policy)).toBeUndefined();
  });
});
