// How a failed tool result reaches a model. Canonically a failure is `{ error: { code, message } }`
// (tool-runner.ts for Patchbay's own failures, tool-call.ts for an MCP server's `isError` result);
// each provider gets that object exactly once, in its own native form:
// - Anthropic: a tool_result with is_error and the JSON `{"error":{code,message}}` as its content;
// - OpenAI (Responses) and OpenAI-compatible: a function_call_output / tool message holding
//   `{"error":{code,message}}` (the OpenAI SDK adds the `error` key itself, so it gets the inner object);
// - Gemini: a functionResponse whose response is `{ name, error: {code, message} }` (the SDK adds
//   `name` and `error`);
// - text tools: `<error>{"code":…,"message":…}</error>`.
// Older stored results in other shapes (a string, `{error: "…"}`) are read into the same object.
import type { JSONValue } from "ai";

import type { JsonValue, ProviderId } from "../core/canonical.ts";

export type CanonicalToolError = { code: string; message: string };

/** The `{ code, message }` of a failed result, whatever shape an older row stored it in. */
export function canonicalError(output: JsonValue): CanonicalToolError {
  if (typeof output === "string") return { code: "tool_error", message: output };
  if (isRecord(output)) {
    const inner = output.error;
    if (isRecord(inner) && typeof inner.code === "string" && typeof inner.message === "string") {
      return { code: inner.code, message: inner.message };
    }
    if (typeof inner === "string") return { code: "tool_error", message: inner };
  }
  return { code: "tool_error", message: JSON.stringify(output) };
}

/** The AI SDK `error-json` value for `provider`, so the request carries the canonical error once. */
export function errorOutputValue(provider: ProviderId, output: JsonValue): JSONValue {
  const error = canonicalError(output);
  // The OpenAI and Google SDKs wrap the value in an `error` key themselves; the others send it as is.
  return provider === "openai" || provider === "google" ? error : { error };
}

function isRecord(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
