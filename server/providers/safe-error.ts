// Turns whatever a provider stream reports as an error (an APICallError, the SDK's RetryError, a
// mid-stream error event, an Error, a raw payload) into a short message a user may see. Provider
// messages are never passed through (they can echo request data or credentials): the kind of
// failure (provider-error.ts) picks the wording, a wait the provider asked for is stated ("try again
// in 20 s"), and the provider's code is appended when it looks like an identifier. An AppError
// thrown by Patchbay's own request code (a subscription's fetch) already carries a user message and
// keeps it.
import { isAppError } from "../errors.ts";
import { classifyProviderError, type ProviderErrorKind } from "./provider-error.ts";

/** "20 s", "3 min", "2 h": how long to wait, rounded up. */
export function formatWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

const later = (wait: string | undefined) => (wait ? `try again in ${wait}` : "try again shortly");

const messages: Record<ProviderErrorKind, (wait: string | undefined) => string> = {
  rate_limit: (wait) => `The provider is rate-limiting requests; ${later(wait)}.`,
  overloaded: (wait) => `The provider is overloaded; ${later(wait)}.`,
  context_too_long: () =>
    "The conversation is too long for this model: start a new chat, or pick a model with a larger context window.",
  plan: () => "Your subscription plan does not include this model or use: upgrade the plan or pick another account.",
  usage_limit: (wait) =>
    `You have reached your subscription's usage limit${wait ? `; it resets in about ${wait}` : ""}. Pick another account or wait.`,
  quota: () => "The provider account has run out of quota or credit.",
  auth: () => "The provider rejected the API key or token.",
  permission: () => "The provider refused access to this model.",
  not_found: () => "The provider does not know this model.",
  codex_instructions: () =>
    "ChatGPT refused the instructions Patchbay sent. The administrator needs to point CHATGPT_INSTRUCTIONS_DIR at the Codex CLI's prompt files (see docs/provider-subscriptions.md).",
  invalid_request: () => "The provider rejected the request as invalid.",
  server: () => "The provider had an internal error; try again.",
  unreachable: () =>
    "Could not reach the model provider; check that it is running and reachable from the Patchbay server.",
  unknown: () => "The model provider returned an error.",
};

/** A user-safe message for an error reported by a provider stream. */
export function safeErrorMessage(error: unknown, now = Date.now()): string {
  if (isAppError(error)) return error.message; // written for the user (e.g. "reconnect your account")
  const info = classifyProviderError(error, now);
  const wait = info.retryAfterSeconds === undefined ? undefined : formatWait(info.retryAfterSeconds);
  const message = messages[info.kind](wait);
  return info.code ? `${message} (${info.code})` : message;
}
