// ChatGPT plan sign-in, as the Codex CLI's device-code login does it (no localhost redirect, so it
// works from a web app): ask the issuer for a user code, show it with the verification page, poll
// until the user approved (403 / 404 = not yet, 429 = slow down), then exchange the authorization
// code the poll answers at `/oauth/token` with the device callback as redirect_uri. The id_token's
// `https://api.openai.com/auth` claim names the ChatGPT account (sent on every request) and the plan.
// Refresh tokens are single-use; the caller serialises refreshes (refresh-lock.ts).
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import {
  exchangeAuthorizationCode,
  signInRefused,
  readRefreshAnswer,
  sendOAuthRequest,
  type TokenSet,
} from "../subscriptions/oauth-http.ts";

export type ChatGptOAuthConfig = Pick<Env, "OPENAI_OAUTH_ISSUER" | "OPENAI_OAUTH_CLIENT_ID">;

const VENDOR = "OpenAI";
/** How long a device code may be polled (the Codex CLI's limit). */
export const DEVICE_LOGIN_TTL_MS = 15 * 60_000;
const DEFAULT_INTERVAL_MS = 5_000;

const issuerUrl = (config: ChatGptOAuthConfig, path: string) =>
  `${config.OPENAI_OAUTH_ISSUER.replace(/\/+$/, "")}${path}`;

export type DeviceCode = { deviceAuthId: string; userCode: string; intervalMs: number; verificationUrl: string };

export async function requestDeviceCode(config: ChatGptOAuthConfig, signal?: AbortSignal): Promise<DeviceCode> {
  const answer = await sendOAuthRequest(
    issuerUrl(config, "/api/accounts/deviceauth/usercode"),
    { json: { client_id: config.OPENAI_OAUTH_CLIENT_ID }, signal },
    VENDOR,
  );
  if (answer.status === 404) {
    throw new AppError("unavailable:provider", "OpenAI does not offer device sign-in for this client right now.");
  }
  const { device_auth_id, user_code, usercode, interval } = answer.body;
  const userCode = typeof user_code === "string" ? user_code : usercode;
  if (answer.status !== 200 || typeof device_auth_id !== "string" || typeof userCode !== "string") {
    throw new AppError("unavailable:provider", `OpenAI did not start the device sign-in (HTTP ${answer.status}).`);
  }
  const seconds = Number(interval);
  return {
    deviceAuthId: device_auth_id,
    userCode,
    intervalMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_INTERVAL_MS,
    verificationUrl: issuerUrl(config, "/codex/device"),
  };
}

export type DevicePoll =
  | { status: "pending" }
  | { status: "slow_down" }
  | { status: "authorized"; authorizationCode: string; codeVerifier: string };

/** One poll of the device code: pending (403 / 404), slow down (429), or the authorization code. */
export async function pollDeviceCode(
  config: ChatGptOAuthConfig,
  device: { deviceAuthId: string; userCode: string },
  signal?: AbortSignal,
): Promise<DevicePoll> {
  const answer = await sendOAuthRequest(
    issuerUrl(config, "/api/accounts/deviceauth/token"),
    { json: { device_auth_id: device.deviceAuthId, user_code: device.userCode }, signal },
    VENDOR,
  );
  if (answer.status === 403 || answer.status === 404) return { status: "pending" };
  if (answer.status === 429) return { status: "slow_down" };
  const { authorization_code, code_verifier } = answer.body;
  if (answer.status === 200 && typeof authorization_code === "string" && typeof code_verifier === "string") {
    return { status: "authorized", authorizationCode: authorization_code, codeVerifier: code_verifier };
  }
  throw signInRefused(answer, "OpenAI ended the device sign-in", "start it again.");
}

export async function exchangeDeviceAuthorization(
  config: ChatGptOAuthConfig,
  authorized: { authorizationCode: string; codeVerifier: string },
  signal?: AbortSignal,
): Promise<TokenSet> {
  const { tokens } = await exchangeAuthorizationCode(
    issuerUrl(config, "/oauth/token"),
    {
      encoding: "form",
      fields: {
        code: authorized.authorizationCode,
        redirect_uri: issuerUrl(config, "/deviceauth/callback"),
        client_id: config.OPENAI_OAUTH_CLIENT_ID,
        code_verifier: authorized.codeVerifier,
      },
      signal,
    },
    VENDOR,
    { refused: "OpenAI refused the sign-in", advice: "start it again." },
  );
  return tokens;
}

export async function refreshChatGptTokens(
  config: ChatGptOAuthConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const answer = await sendOAuthRequest(
    issuerUrl(config, "/oauth/token"),
    {
      json: { client_id: config.OPENAI_OAUTH_CLIENT_ID, grant_type: "refresh_token", refresh_token: refreshToken },
      signal,
    },
    VENDOR,
  );
  return readRefreshAnswer(answer, VENDOR);
}

export type ChatGptClaims = { accountId?: string; plan?: string; email?: string };

function jwtPayload(token: string | undefined): Record<string, unknown> {
  const part = token?.split(".")[1];
  if (!part) return {};
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const AUTH_CLAIM = "https://api.openai.com/auth";
const PROFILE_CLAIM = "https://api.openai.com/profile";
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** The ChatGPT account id, plan and email from the id_token (plan also from the access token). */
export function readChatGptClaims(tokens: { idToken?: string; accessToken?: string }): ChatGptClaims {
  const id = jwtPayload(tokens.idToken);
  const access = jwtPayload(tokens.accessToken);
  const idAuth = (id[AUTH_CLAIM] ?? {}) as Record<string, unknown>;
  const accessAuth = (access[AUTH_CLAIM] ?? {}) as Record<string, unknown>;
  const profile = (access[PROFILE_CLAIM] ?? {}) as Record<string, unknown>;
  const accountId = text(idAuth.chatgpt_account_id) ?? text(accessAuth.chatgpt_account_id);
  const plan = text(accessAuth.chatgpt_plan_type) ?? text(idAuth.chatgpt_plan_type);
  const email = text(id.email) ?? text(profile.email);
  return { ...(accountId && { accountId }), ...(plan && { plan }), ...(email && { email }) };
}
