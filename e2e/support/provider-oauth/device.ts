// The harness' ChatGPT device-code login, shaped after the Codex CLI's: `usercode` answers a device
// id, a user code and the poll interval (seconds, as a string); `token` answers 403 while the user
// has not approved, 429 when polled faster than `minPollGapMs`, 410 once expired, and after approval
// the authorization code plus the PKCE pair; `/oauth/token` exchanges that code (form body, the
// device callback as redirect_uri) for an id_token with the ChatGPT auth claim, an access token and
// a refresh token. Refresh takes JSON and rotates; a reused or revoked refresh token gets 401 with
// Codex's error codes. The verification page lets a person type the code and approve.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import { escapeHtml, readBody, sendHtml, sendJson, str } from "./http.ts";
import { type OAuthState, randomToken, s256 } from "./state.ts";
import { issueAccessToken, issueIdToken } from "./tokens.ts";
import { CLIENTS, USERS } from "./vendors.ts";

export type DeviceOptions = {
  issuer: string;
  intervalSeconds: () => number;
  minPollGapMs: () => number;
  deviceTtlMs: () => number;
  accessTtlMs: () => number;
};

const AUTH_CLAIM = {
  "https://api.openai.com/auth": {
    chatgpt_account_id: USERS.openai.accountId,
    chatgpt_plan_type: USERS.openai.plan,
    chatgpt_user_id: "user-e2e-0001",
  },
};

export async function handleUserCode(
  req: IncomingMessage,
  res: ServerResponse,
  state: OAuthState,
  options: DeviceOptions,
) {
  const body = await readBody(req);
  if (body.kind !== "json" || str(body.fields.client_id) !== CLIENTS.openai.clientId) {
    return sendJson(res, 400, { error: { message: "client_id (JSON) required", code: "invalid_request" } });
  }
  const deviceAuthId = randomToken("deviceauth_");
  const hex = randomBytes(4).toString("hex").toUpperCase();
  const userCode = `${hex.slice(0, 4)}-${hex.slice(4)}`;
  state.devices.set(deviceAuthId, {
    deviceAuthId,
    userCode,
    isApproved: false,
    expiresAt: Date.now() + options.deviceTtlMs(),
    lastPollAt: 0,
    verifier: randomToken(""),
  });
  sendJson(res, 200, {
    device_auth_id: deviceAuthId,
    user_code: userCode,
    interval: String(options.intervalSeconds()),
  });
}

export async function handleDevicePoll(
  req: IncomingMessage,
  res: ServerResponse,
  state: OAuthState,
  options: DeviceOptions,
) {
  const body = await readBody(req);
  const device = state.devices.get(str(body.fields.device_auth_id) ?? "");
  if (!device || device.userCode !== str(body.fields.user_code)) {
    return sendJson(res, 404, { error: { message: "unknown device code", code: "not_found" } });
  }
  const now = Date.now();
  if (now > device.expiresAt)
    return sendJson(res, 410, { error: { message: "device code expired", code: "expired_token" } });
  const isTooSoon = now - device.lastPollAt < options.minPollGapMs();
  device.lastPollAt = now;
  if (isTooSoon) return sendJson(res, 429, { error: { message: "slow down", code: "slow_down" } });
  if (!device.isApproved)
    return sendJson(res, 403, { error: { message: "authorization pending", code: "deviceauth_pending" } });
  state.devices.delete(device.deviceAuthId);
  const code = randomToken("openai-code-");
  state.deviceCodes.set(code, s256(device.verifier));
  sendJson(res, 200, {
    authorization_code: code,
    code_challenge: s256(device.verifier),
    code_verifier: device.verifier,
  });
}

/** GET: the page where a person enters the code; POST: approves it. */
export async function handleVerificationPage(req: IncomingMessage, res: ServerResponse, state: OAuthState) {
  if (req.method === "GET") {
    return sendHtml(
      res,
      200,
      "Sign in to Codex with ChatGPT",
      `<form method="post"><label>Device code <input name="user_code" autocomplete="off"></label>` +
        `<button type="submit">Continue</button></form>`,
    );
  }
  const body = await readBody(req);
  const entered = (str(body.fields.user_code) ?? "").trim().toUpperCase();
  const device = [...state.devices.values()].find((candidate) => candidate.userCode === entered);
  if (!device)
    return sendHtml(res, 400, "Unknown code", `<p role="alert">No sign-in waits for ${escapeHtml(entered)}.</p>`);
  device.isApproved = true;
  sendHtml(res, 200, "Signed in", `<p role="status">You may close this tab and return to the application.</p>`);
}

function tokenAnswer(options: DeviceOptions, state: OAuthState) {
  const ttl = options.accessTtlMs();
  return {
    id_token: issueIdToken({ email: USERS.openai.email, ...AUTH_CLAIM }),
    access_token: issueAccessToken("openai", ttl, {
      ...AUTH_CLAIM,
      "https://api.openai.com/profile": { email: USERS.openai.email },
    }),
    refresh_token: state.newRefreshToken("openai"),
    expires_in: Math.round(ttl / 1000),
    token_type: "Bearer",
  };
}

export async function handleOpenAIToken(
  req: IncomingMessage,
  res: ServerResponse,
  state: OAuthState,
  options: DeviceOptions,
) {
  const body = await readBody(req);
  const grantType = str(body.fields.grant_type) ?? "(none)";
  const fail = (status: number, code: string, message: string) => {
    state.record("openai", grantType, code);
    sendJson(res, status, { error: { message, type: "invalid_request_error", code } });
  };
  if (str(body.fields.client_id) !== CLIENTS.openai.clientId) return fail(401, "invalid_client", "unknown client");
  if (grantType === "authorization_code") {
    if (body.kind !== "form") return fail(400, "invalid_request", "the code exchange takes a form body");
    const code = str(body.fields.code) ?? "";
    const challenge = state.deviceCodes.get(code);
    state.deviceCodes.delete(code);
    if (!challenge) return fail(400, "invalid_grant", "unknown or used code");
    if (str(body.fields.redirect_uri) !== `${options.issuer}/deviceauth/callback`) {
      return fail(400, "invalid_grant", "redirect_uri mismatch");
    }
    if (s256(str(body.fields.code_verifier) ?? "") !== challenge) return fail(400, "invalid_grant", "PKCE failed");
    state.record("openai", grantType, "ok");
    return sendJson(res, 200, tokenAnswer(options, state));
  }
  if (grantType === "refresh_token") {
    if (body.kind !== "json") return fail(400, "invalid_request", "refresh takes a JSON body");
    const grant = state.refreshTokens.get(str(body.fields.refresh_token) ?? "");
    if (!grant || grant.vendor !== "openai") return fail(401, "refresh_token_expired", "refresh token expired");
    if (grant.isRevoked) return fail(401, "refresh_token_invalidated", "refresh token invalidated");
    if (grant.isUsed) return fail(401, "refresh_token_reused", "refresh token already used");
    grant.isUsed = true;
    state.record("openai", grantType, "ok");
    return sendJson(res, 200, tokenAnswer(options, state));
  }
  fail(400, "unsupported_grant_type", grantType);
}
