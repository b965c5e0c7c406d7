// Reads what a provider error says, whatever shape it arrives in — an APICallError from the HTTP
// call, the AI SDK's RetryError around one, a StreamProviderError (or the provider's stream-error
// object) from a mid-stream `error` event, or a raw error payload — into one small classification:
// the kind of failure, the provider's error code, the HTTP status, how long the provider asks to wait
// and whether another attempt could help. safe-error.ts words it for the user; retry-before-output.ts
// decides retries with it. The provider's own message text is only matched against known phrases
// (context length, "try again in Ns") and never returned: it can echo request data or credentials.
// Pure apart from the `now` used for HTTP-date retry-after values.
import { isProviderStreamError } from "@ai-sdk/provider-utils";
import { APICallError, RetryError, StreamProviderError } from "ai";

export type ProviderErrorKind =
  | "rate_limit"
  | "overloaded"
  | "context_too_long"
  | "plan"
  | "usage_limit"
  | "quota"
  | "auth"
  | "permission"
  | "not_found"
  | "codex_instructions"
  | "invalid_request"
  | "server"
  | "unreachable"
  | "unknown";

export type ProviderErrorInfo = {
  kind: ProviderErrorKind;
  /** The provider's error code when it looks like an identifier (`rate_limit_error`, `RESOURCE_EXHAUSTED`). */
  code?: string;
  status?: number;
  /** How long the provider asks to wait (retry-after headers, a retry delay in the body, "try again in Ns"). */
  retryAfterSeconds?: number;
  /** Another attempt may succeed: rate limits, overload, server errors, an unreachable provider. */
  isRetryable: boolean;
};

type Json = Record<string, unknown>;
type Facts = { status?: number; headers?: Record<string, string>; payload: unknown; codes: unknown[]; text: string };

const record = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

function parseJson(body: string | undefined): unknown {
  try {
    return body ? (JSON.parse(body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The object holding the error fields: `{error}`, `{response: {error}}` (OpenAI response.failed), or itself. */
function errorObject(payload: unknown): Json {
  const outer = record(payload) ?? {};
  return record(outer.error) ?? record(record(outer.response)?.error) ?? outer;
}

function messageOf(payload: unknown): string {
  const inner = errorObject(payload);
  const outer = record(payload) ?? {};
  return text(inner.message) ?? text(outer.message) ?? text(outer.detail) ?? "";
}

function factsOf(error: unknown): Facts {
  if (RetryError.isInstance(error)) return factsOf(error.lastError);
  if (APICallError.isInstance(error)) {
    const payload = error.data ?? parseJson(error.responseBody);
    return { status: error.statusCode, headers: error.responseHeaders, payload, codes: [], text: messageOf(payload) };
  }
  if (StreamProviderError.isInstance(error) || isProviderStreamError(error)) {
    const { code, type, statusCode, data, message } = error as StreamProviderError;
    const status = typeof statusCode === "number" ? statusCode : undefined;
    return { status, payload: data, codes: [code, type], text: messageOf(data) || message };
  }
  if (error instanceof Error) return { payload: undefined, codes: [], text: "" };
  return { payload: error, codes: [], text: messageOf(error) };
}

const IGNORED_CODES = new Set(["error", "response.failed"]);

function codeOf(facts: Facts): string | undefined {
  const inner = errorObject(facts.payload);
  const outer = record(facts.payload) ?? {};
  const candidates = [...facts.codes, inner.code, inner.type, inner.status, outer.code, outer.type];
  return candidates.find(
    (value): value is string =>
      typeof value === "string" && /^[a-zA-Z][a-zA-Z0-9_.-]{0,63}$/.test(value) && !IGNORED_CODES.has(value),
  );
}

const CONTEXT_TEXT =
  /prompt is too long|input token count.*exceeds|exceeds the maximum number of tokens|maximum context length|context window|context length|too many (input )?tokens/i;

const codeKinds: Record<string, ProviderErrorKind> = {
  context_length_exceeded: "context_too_long",
  request_too_large: "context_too_long",
  usage_not_included: "plan",
  usage_limit_reached: "usage_limit",
  insufficient_quota: "quota",
  rate_limit_exceeded: "rate_limit",
  rate_limit_error: "rate_limit",
  RESOURCE_EXHAUSTED: "rate_limit",
  overloaded_error: "overloaded",
  UNAVAILABLE: "overloaded",
  authentication_error: "auth",
  invalid_api_key: "auth",
  UNAUTHENTICATED: "auth",
  permission_error: "permission",
  PERMISSION_DENIED: "permission",
  not_found_error: "not_found",
  model_not_found: "not_found",
  NOT_FOUND: "not_found",
  api_error: "server",
  server_error: "server",
  INTERNAL: "server",
};

function statusKind(status: number | undefined): ProviderErrorKind | undefined {
  if (status === undefined) return undefined;
  if (status === 413) return "context_too_long";
  if (status === 429) return "rate_limit";
  if (status === 529 || status === 503) return "overloaded";
  if (status === 401) return "auth";
  if (status === 403) return "permission";
  if (status === 404) return "not_found";
  if (status >= 500) return "server";
  return status >= 400 ? "invalid_request" : undefined;
}

function kindOf(facts: Facts, code: string | undefined, error: unknown): ProviderErrorKind {
  if (facts.text.trim() === "Instructions are not valid") return "codex_instructions";
  const byCode = code ? codeKinds[code] : undefined;
  if (byCode && byCode !== "rate_limit" && byCode !== "overloaded") return byCode;
  if (CONTEXT_TEXT.test(facts.text)) return "context_too_long";
  if (byCode) return byCode;
  if (/\boverloaded\b/i.test(facts.text)) return "overloaded";
  const byStatus = statusKind(facts.status);
  if (byStatus) return byStatus;
  const isUnreachable =
    APICallError.isInstance(error) &&
    error.statusCode === undefined &&
    error.message.startsWith("Cannot connect to API");
  return isUnreachable ? "unreachable" : "unknown";
}

const SANE_WAIT_SECONDS = 7 * 86_400;

function secondsFromHeaders(headers: Record<string, string> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers["retry-after-ms"]);
  if (Number.isFinite(ms) && ms > 0) return ms / 1000;
  const value = headers["retry-after"]?.trim();
  if (!value) return undefined;
  return /^\d+(\.\d+)?$/.test(value) ? Number(value) : (Date.parse(value) - now) / 1000;
}

function secondsFromBody(payload: unknown, message: string): number | undefined {
  const inner = errorObject(payload);
  const resets = Number(inner.resets_in_seconds);
  if (Number.isFinite(resets) && resets > 0) return resets;
  const details = Array.isArray(inner.details) ? (inner.details as unknown[]) : [];
  const delay = details.map((detail) => text(record(detail)?.retryDelay)).find((value) => value !== undefined);
  const fromDelay = delay && /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1];
  if (fromDelay) return Number(fromDelay);
  const said = /try again in (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i.exec(message);
  if (!said) return undefined;
  const unit = said[2]!.toLowerCase();
  const factor = unit.startsWith("ms") || unit.startsWith("milli") ? 0.001 : unit.startsWith("m") ? 60 : 1;
  return Number(said[1]) * factor;
}

function retryAfterSeconds(facts: Facts, now: number): number | undefined {
  const seconds = secondsFromHeaders(facts.headers, now) ?? secondsFromBody(facts.payload, facts.text);
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds < SANE_WAIT_SECONDS
    ? Math.ceil(seconds)
    : undefined;
}

const RETRYABLE_KINDS = new Set<ProviderErrorKind>(["rate_limit", "overloaded", "server", "unreachable"]);

/** What a provider error says; see the module comment. */
export function classifyProviderError(error: unknown, now = Date.now()): ProviderErrorInfo {
  const facts = factsOf(error);
  const code = codeOf(facts);
  const kind = kindOf(facts, code, error);
  const wait = retryAfterSeconds(facts, now);
  return {
    kind,
    ...(code && { code }),
    ...(facts.status !== undefined && { status: facts.status }),
    ...(wait !== undefined && { retryAfterSeconds: wait }),
    isRetryable: RETRYABLE_KINDS.has(kind),
  };
}
