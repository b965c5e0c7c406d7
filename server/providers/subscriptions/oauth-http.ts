// The HTTP calls of the subscription sign-ins and refreshes: one POST (JSON or form) with a timeout
// and the caller's AbortSignal, answering status + parsed JSON without throwing on HTTP errors, so
// each flow decides what a status means. Only an unreachable host throws (unavailable:provider).
// Token responses are read into a TokenSet; an error answer is classified as permanent (the user must
// sign in again) or transient. Nothing here ever puts a token or a response body into an error.
import { AppError } from "../../errors.ts";

export type OAuthAnswer = { status: number; body: Record<string, unknown> };

export type TokenSet = {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Absent when the server did not say (expires_in missing). */
  expiresAt?: Date;
};

const DEFAULT_TIMEOUT_MS = 15_000;

type RequestOptions = {
  method?: "GET" | "POST";
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
};

/** One request to an OAuth or onboarding endpoint; `surface` names the vendor in the error message. */
export async function sendOAuthRequest(url: string, options: RequestOptions, vendor: string): Promise<OAuthAnswer> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? globalThis.fetch)(url, {
      method: options.method ?? "POST",
      headers,
      body,
      signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new AppError("unavailable:provider", `${vendor} could not be reached; try again shortly.`, { cause: error });
  }
  const text = await response.text();
  return { status: response.status, body: parseObject(text) };
}

/**
 * Trades an authorization code for tokens, the request every vendor's sign-in ends with: one POST of
 * `grant_type=authorization_code` and the vendor's fields, as JSON or as a form. A refusal becomes
 * signInRefused(refused, advice). The answer's body comes back with the tokens, for vendors that
 * name the account in it.
 */
export async function exchangeAuthorizationCode(
  url: string,
  request: { encoding: "json" | "form"; fields: Record<string, string>; signal?: AbortSignal },
  vendor: string,
  refusal: { refused: string; advice: string },
): Promise<{ tokens: TokenSet; body: Record<string, unknown> }> {
  const fields = { grant_type: "authorization_code", ...request.fields };
  const answer = await sendOAuthRequest(url, { [request.encoding]: fields, signal: request.signal }, vendor);
  if (answer.status !== 200) throw signInRefused(answer, refusal.refused, refusal.advice);
  return { tokens: readTokenResponse(answer.body, vendor), body: answer.body };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const asString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** The token fields of a successful token response; throws when there is no access token. */
export function readTokenResponse(body: Record<string, unknown>, vendor: string, now = Date.now()): TokenSet {
  const accessToken = asString(body.access_token);
  if (!accessToken) throw new AppError("unavailable:provider", `${vendor} answered without an access token.`);
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in);
  return {
    accessToken,
    ...(asString(body.refresh_token) && { refreshToken: asString(body.refresh_token) }),
    ...(asString(body.id_token) && { idToken: asString(body.id_token) }),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 && { expiresAt: new Date(now + expiresIn * 1000) }),
  };
}

/**
 * The error code of an OAuth error answer: `error` (RFC 6749), `error.code` / `error.type`, or
 * `code` — only when it looks like an identifier, since it may end up in a message a user sees.
 */
export function oauthErrorCode(body: Record<string, unknown>): string | undefined {
  const inner = body.error;
  const record = typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {};
  const code =
    typeof inner === "string" ? inner : (asString(record.code) ?? asString(record.type) ?? asString(body.code));
  return code !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : undefined;
}

/**
 * The error for a sign-in step the vendor refused: `refused` reads like "Anthropic refused the code",
 * `advice` tells the user what to do; the vendor's error code, when it has one, goes between them.
 */
export function signInRefused(answer: OAuthAnswer, refused: string, advice: string): AppError {
  const code = oauthErrorCode(answer.body);
  return new AppError("bad_request:provider", `${refused}${code ? ` (${code})` : ""}; ${advice}`);
}

const PERMANENT_REFRESH_CODES = new Set([
  "invalid_grant",
  "refresh_token_expired",
  "refresh_token_reused",
  "refresh_token_invalidated",
]);

/** True when a refresh failed for good: the refresh token is expired, used, revoked or unknown. */
export function isPermanentRefreshFailure(answer: OAuthAnswer): boolean {
  const code = oauthErrorCode(answer.body);
  return answer.status >= 400 && answer.status < 500 && code !== undefined && PERMANENT_REFRESH_CODES.has(code);
}

/** Thrown by a vendor's refresh when the refresh token is dead; the caller marks the account. */
export class RefreshRevokedError extends Error {
  override name = "RefreshRevokedError";
  constructor(readonly code: string) {
    super(`The refresh token was refused (${code}).`);
  }
}

/** Classifies a refresh answer: the new tokens, or a thrown RefreshRevokedError / transient AppError. */
export function readRefreshAnswer(answer: OAuthAnswer, vendor: string, now = Date.now()): TokenSet {
  if (answer.status === 200) return readTokenResponse(answer.body, vendor, now);
  if (isPermanentRefreshFailure(answer)) throw new RefreshRevokedError(oauthErrorCode(answer.body) ?? "invalid_grant");
  throw new AppError(
    "unavailable:provider",
    `${vendor} could not refresh the sign-in (HTTP ${answer.status}); try again shortly.`,
  );
}
