import { APICallError } from "ai";
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

describe("safeErrorMessage", () => {
  it("words a known code and never passes the provider's own message through", () => {
    const message = safeErrorMessage(apiError(400, { error: { type: "invalid_request_error", message: "leak" } }));
    expect(message).toBe("The provider rejected the request as invalid. (invalid_request_error)");
    expect(message).not.toContain("leak");
  });

  it("says how long a rate limit asks to wait (seconds, HTTP date, milliseconds)", () => {
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "20" }), now)).toBe(
      "The provider is rate-limiting requests; try again shortly. The provider asks to wait 20 s.",
    );
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "Sun, 22 Nov 2026 00:01:00 GMT" }), now)).toMatch(
      /wait 60 s\.$/,
    );
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after-ms": "1500" }), now)).toMatch(/wait 2 s\.$/);
    expect(safeErrorMessage(apiError(429, undefined, { "retry-after": "soon" }), now)).not.toMatch(/wait/);
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

  it("words mid-stream error payloads and bare statuses", () => {
    expect(safeErrorMessage({ type: "error", error: { type: "overloaded_error", message: "x" } })).toBe(
      "The provider is overloaded; try again shortly. (overloaded_error)",
    );
    expect(safeErrorMessage(apiError(500, undefined))).toBe("The provider had an internal error; try again.");
    expect(safeErrorMessage(new Error("socket hang up with token sk-123"))).toBe(
      "The model provider returned an error.",
    );
  });
});
