// Refresh answers are sorted into new tokens, a dead refresh token (the user must sign in again), or
// a transient failure (try again later), by the vendors' error codes — never by guesswork.
import { describe, expect, it } from "vitest";

import { AppError } from "../../errors.ts";
import { oauthErrorCode, readRefreshAnswer, readTokenResponse, RefreshRevokedError } from "./oauth-http.ts";

describe("readRefreshAnswer", () => {
  it("reads rotated tokens and the expiry", () => {
    const tokens = readRefreshAnswer(
      { status: 200, body: { access_token: "a", refresh_token: "r2", expires_in: 3600 } },
      "V",
      1_000,
    );
    expect(tokens).toEqual({ accessToken: "a", refreshToken: "r2", expiresAt: new Date(3_601_000) });
  });

  it.each([
    [400, { error: "invalid_grant" }, "invalid_grant"],
    [401, { error: { code: "refresh_token_reused" } }, "refresh_token_reused"],
    [401, { error: { code: "refresh_token_expired" } }, "refresh_token_expired"],
    [401, { error: { code: "refresh_token_invalidated" } }, "refresh_token_invalidated"],
  ])("treats HTTP %i %j as permanent", (status, body, code) => {
    expect(() => readRefreshAnswer({ status, body }, "V")).toThrow(RefreshRevokedError);
    expect(() => readRefreshAnswer({ status, body }, "V")).toThrow(code);
  });

  it.each([
    [500, {}],
    [429, { error: "rate_limited" }],
    [400, { error: "invalid_request" }],
  ])("treats HTTP %i %j as transient", (status, body) => {
    expect(() => readRefreshAnswer({ status, body }, "V")).toThrow(AppError);
  });

  it("never echoes an error code that is not an identifier", () => {
    expect(oauthErrorCode({ error: "invalid_grant" })).toBe("invalid_grant");
    expect(oauthErrorCode({ error: "token at-123 is bad <script>" })).toBeUndefined();
    expect(oauthErrorCode({ error: { code: "x".repeat(65) } })).toBeUndefined();
  });

  it("refuses a token answer without an access token", () => {
    expect(() => readTokenResponse({ refresh_token: "r" }, "V")).toThrow(/without an access token/);
  });
});
