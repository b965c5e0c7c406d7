// Turns whatever a provider stream reports as an error (an APICallError, a mid-stream error event's
// payload, an Error, a string) into a short message a user may see. Provider messages are never
// passed through (they can echo request data); only a known error code or HTTP status picks the
// wording, and the code itself is appended when it looks like an identifier. An AppError thrown by
// Patchbay's own request code (a subscription's fetch) already carries a user message and keeps it.
import { APICallError } from "ai";

import { AppError } from "../errors.ts";

const messagesByCode: Record<string, string> = {
  insufficient_quota: "The provider account has run out of quota or credit.",
  rate_limit_exceeded: "The provider is rate-limiting requests; try again shortly.",
  rate_limit_error: "The provider is rate-limiting requests; try again shortly.",
  overloaded_error: "The provider is overloaded; try again shortly.",
  authentication_error: "The provider rejected the API key or token.",
  invalid_api_key: "The provider rejected the API key or token.",
  permission_error: "The provider refused access to this model.",
  not_found_error: "The provider does not know this model.",
  model_not_found: "The provider does not know this model.",
  context_length_exceeded: "The conversation is too long for this model.",
  request_too_large: "The conversation is too long for this model.",
  invalid_request_error: "The provider rejected the request as invalid.",
};

function messageForStatus(status: number | undefined): string | undefined {
  if (status === undefined) return undefined;
  if (status === 401) return messagesByCode.authentication_error;
  if (status === 403) return messagesByCode.permission_error;
  if (status === 404) return messagesByCode.not_found_error;
  if (status === 413) return messagesByCode.request_too_large;
  if (status === 429) return messagesByCode.rate_limit_exceeded;
  if (status === 529 || status === 503) return messagesByCode.overloaded_error;
  if (status >= 500) return "The provider had an internal error; try again.";
  if (status >= 400) return messagesByCode.invalid_request_error;
  return undefined;
}

function readString(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null || !(key in value)) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : undefined;
}

/** The provider's error code from `{error: {code|type}}` or `{code|type}` payloads. */
function errorCode(payload: unknown): string | undefined {
  const inner = typeof payload === "object" && payload !== null && "error" in payload ? payload.error : undefined;
  const code =
    readString(inner, "code") ??
    readString(inner, "type") ??
    readString(payload, "code") ??
    readString(payload, "type");
  return code && /^[a-zA-Z0-9_.-]{1,64}$/.test(code) && code !== "error" ? code : undefined;
}

/** Seconds from a `retry-after` header (seconds or an HTTP date) or `retry-after-ms`, when sane. */
function retryAfterSeconds(headers: Record<string, string> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers["retry-after-ms"]);
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const value = headers["retry-after"];
  if (!value) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : (Date.parse(value) - now) / 1000;
  return Number.isFinite(seconds) && seconds > 0 && seconds < 86_400 ? Math.ceil(seconds) : undefined;
}

/** A user-safe message for an error reported by a provider stream. */
export function safeErrorMessage(error: unknown, now = Date.now()): string {
  if (error instanceof AppError) return error.message; // written for the user (e.g. "reconnect your account")
  const isApiError = APICallError.isInstance(error);
  const code = errorCode(isApiError ? error.data : error);
  const status = isApiError ? error.statusCode : undefined;
  const unreachable = isApiError && status === undefined && error.message.startsWith("Cannot connect to API");
  const message =
    (code && messagesByCode[code]) ??
    messageForStatus(status) ??
    (unreachable
      ? "Could not reach the model provider; check that it is running and reachable from the Patchbay server."
      : "The model provider returned an error.");
  const wait = isApiError ? retryAfterSeconds(error.responseHeaders, now) : undefined;
  const withWait = wait ? `${message} The provider asks to wait ${wait} s.` : message;
  return code ? `${withWait} (${code})` : withWait;
}
