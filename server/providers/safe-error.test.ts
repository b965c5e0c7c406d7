// What a user reads when a provider fails: a wording picked by the kind of failure, the wait the
// provider asked for, the provider's code — and never the provider's own message text.
import { createProviderStreamError } from "@ai-sdk/provider-utils";
import { APICallError, RetryError, StreamProviderError } from "ai";
import { describe, expect, it } from "vitest";

import { safeErrorMessage } from "./safe-error.ts";

function apiError(statusCode: number, data: unknown, responseHeaders?: Record<string, string>) {
  return new APICallError({
    message: "upstream said: secret request body echoed here",
    url: "https://api.example.test/v1/messages",
    requestBodyValues: { prompt: "private" },
    statusCode,
    data,
    responseHeaders,
  });
}

const CONTEXT = "The conversation is too long for this model";

describe("safeErrorMessage", () => {
  it("words a known code and never passes the provider's own message through", () => {
    const message = safeErrorMessage(apiError(400, { error: { type: "invalid_request_error", message: "leak" } }));
    expect(message).toBe("The provider rejected the request as invalid. (invalid_request_error)");
    expect(message).not.toContain("leak");
  });

  it("says how long a rate limit asks to wait (seconds, HTTP date, milliseconds)", () => {
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "20" }), now)).toBe(
      "The provider is rate-limiting requests; try again in 20 s.",
    );
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "Sun, 22 Nov 2026 00:03:00 GMT" }), now)).toBe(
      "The provider is rate-limiting requests; try again in 3 min.",
    );
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after-ms": "1500" }), now)).toMatch(/in 2 s\.$/);
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "soon" }), now)).toBe(
      "The provider is rate-limiting requests; try again shortly.",
    );
  });

  it("reads the wait from a Codex response.failed ('try again in Ns') and a Gemini RetryInfo", () => {
    const failed = {
      type: "response.failed",
      response: {
        error: { code: "rate_limit_exceeded", message: "Limit hit for org-secret. Please try again in 11.054s." },
      },
    };
    expect(safeErrorMessage(failed)).toBe(
      "The provider is rate-limiting requests; try again in 12 s. (rate_limit_exceeded)",
    );
    const gemini = {
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        message: "Quota exceeded",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "34s" }],
      },
    };
    expect(safeErrorMessage(apiError(429, gemini))).toMatch(/try again in 34 s\. \(RESOURCE_EXHAUSTED\)$/);
  });

  it("says the conversation is too long (Anthropic prompt too long, Gemini token limit, OpenAI context length)", () => {
    const anthropic = apiError(400, {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210351 tokens > 200000 maximum" },
    });
    const gemini = apiError(400, {
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: "The input token count (1210351) exceeds the maximum number of tokens allowed (1048576).",
      },
    });
    const codex = { type: "response.failed", response: { error: { code: "context_length_exceeded", message: "x" } } };
    for (const error of [anthropic, gemini, codex]) expect(safeErrorMessage(error)).toContain(CONTEXT);
    expect(safeErrorMessage(anthropic)).not.toContain("210351");
  });

  it("names a plan that does not include Codex, and a usage limit with when it resets", () => {
    expect(
      safeErrorMessage({ type: "response.failed", response: { error: { code: "usage_not_included", message: "x" } } }),
    ).toBe(
      "Your subscription plan does not include this model or use: upgrade the plan or pick another account. (usage_not_included)",
    );
    const limit = apiError(429, {
      error: { type: "usage_limit_reached", message: "The usage limit has been reached", resets_in_seconds: 9000 },
    });
    expect(safeErrorMessage(limit)).toBe(
      "You have reached your subscription's usage limit; it resets in about 3 h. Pick another account or wait. (usage_limit_reached)",
    );
    expect(safeErrorMessage(apiError(429, { error: { code: "insufficient_quota", message: "x" } }))).toMatch(/quota/);
  });

  it("says when ChatGPT refused the instructions and what the administrator can do", () => {
    expect(safeErrorMessage(apiError(400, { detail: "Instructions are not valid" }))).toMatch(
      /ChatGPT refused the instructions.*CHATGPT_INSTRUCTIONS_DIR/,
    );
  });

  it("words overload mid-stream, from a payload, a provider stream error or the SDK's StreamProviderError", () => {
    const payload = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const expected = "The provider is overloaded; try again shortly. (overloaded_error)";
    expect(safeErrorMessage(payload)).toBe(expected);
    const streamError = createProviderStreamError({
      message: "Overloaded",
      type: "overloaded_error",
      statusCode: 529,
      data: undefined,
    });
    expect(safeErrorMessage(streamError)).toBe(expected);
    const sdk = new StreamProviderError({
      message: "Overloaded",
      type: "overloaded_error",
      statusCode: 529,
      data: payload,
    });
    expect(safeErrorMessage(sdk)).toBe(expected);
    expect(safeErrorMessage(apiError(529, undefined))).toBe("The provider is overloaded; try again shortly.");
  });

  it("looks through the SDK's RetryError to the last provider error", () => {
    const last = apiError(429, undefined, { "retry-after": "90" });
    const retry = new RetryError({
      message: "Failed after 2 attempts. Last error: secret",
      reason: "maxRetriesExceeded",
      errors: [last, last],
    });
    expect(safeErrorMessage(retry)).toBe("The provider is rate-limiting requests; try again in 90 s.");
  });

  it("says when the provider could not be reached at all", () => {
    const refused = new APICallError({
      message: "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434",
      url: "http://127.0.0.1:11434/v1/chat/completions",
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(safeErrorMessage(refused)).toBe(
      "Could not reach the model provider; check that it is running and reachable from the Patchbay server.",
    );
  });

  it("words bare statuses and unknown errors without their text", () => {
    expect(safeErrorMessage(apiError(500, undefined))).toBe("The provider had an internal error; try again.");
    expect(safeErrorMessage(new Error("socket hang up with token sk-123"))).toBe(
      "The model provider returned an error.",
    );
  });
});
