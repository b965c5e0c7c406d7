// Turns whatever a provider stream reports as an error (an APICallError, a mid-stream error event's
// payload, an Error, a string) into a short message a user may see. Provider messages are never
// passed through (they can echo request data); only a known error code or HTTP status picks the
// wording, and the code itself is appended when it looks like an identifier.
import { APICallError } from "ai";

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

/** A user-safe message for an error reported by a provider stream. */
export function safeErrorMessage(error: unknown): string {
  const isApiError = APICallError.isInstance(error);
  const code = errorCode(isApiError ? error.data : error);
  const status = isApiError ? error.statusCode : undefined;
  const message = (code && messagesByCode[code]) ?? messageForStatus(status) ?? "The model provider returned an error.";
  return code ? `${message} (${code})` : message;
}
