// How a connection's failures become what callers see (mcp-connection.ts): aborts and timeouts as
// ToolErrors, transport failures recognised, and error text fit for users and models (a refused
// address from guarded-fetch.ts reads as the refusal, not as "fetch failed").
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

import { isAppError } from "../errors.ts";
import { ToolError } from "../core/tool-source.ts";

/** `work`, unless `signal` aborts first (then a ToolError cancelled / timeout). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export function abortError(signal: AbortSignal): ToolError {
  const reason: unknown = signal.reason;
  return reason instanceof DOMException && reason.name === "TimeoutError"
    ? new ToolError("timeout", "The tool call timed out.")
    : new ToolError("cancelled", "The tool call was cancelled.");
}

export function isTransportFailure(error: unknown): boolean {
  return (
    error instanceof StreamableHTTPError ||
    error instanceof SseError ||
    (error instanceof TypeError && error.message === "fetch failed")
  );
}

/**
 * The server no longer knows our session (it restarted, or expired it): 404 as the spec says, or the
 * 400 "No valid session ID" some servers (e.g. the reference server-everything) answer instead.
 * The legacy SSE transport reports a refused POST as a plain Error with the status in its text.
 */
export function isSessionLost(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) {
    return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
  }
  return error instanceof Error && /^Error POSTing to endpoint \(HTTP 404\)/.test(error.message);
}

/**
 * A transport's report that its stream broke or could not be reopened (the SDK's own words), or that
 * the server could not be reached: the connection may be gone, so connection.ts checks.
 */
export function isStreamTrouble(error: unknown): boolean {
  if (isTransportFailure(error)) return true;
  return (
    error instanceof Error &&
    /^(SSE stream disconnected|Failed to reconnect|Failed to open SSE stream|Maximum reconnection attempts)/.test(
      error.message,
    )
  );
}

/** The server answered the standalone GET stream with an HTTP status (405 unsupported, 404, 401…). */
export function isStreamRefused(error: unknown): boolean {
  return (
    error instanceof StreamableHTTPError &&
    typeof error.code === "number" &&
    /Failed to open SSE stream/.test(error.message)
  );
}

export function describe(error: unknown): string {
  // A refused address or redirect (guarded-fetch.ts) rides as the cause of a "fetch failed" TypeError.
  if (error instanceof TypeError && isAppError(error.cause)) return error.cause.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^MCP error -?\d+: /, "");
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * A failed call that is not an abort, an authorization or a transport failure, as the ToolError the
 * model reads: the server's timeout, a closed connection, its own error, or an answer not understood.
 */
/** A failed call in words for the model; `name` is the connector's name (never its pool key, which holds ids). */
export function callFailure(error: unknown, name: string, timeoutMs: number): ToolError {
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return new ToolError("timeout", `The ${name} connector did not answer within ${formatSeconds(timeoutMs)}.`);
  }
  if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) {
    return new ToolError("unavailable", `The ${name} connector's server went away during the call.`);
  }
  if (error instanceof McpError) {
    return new ToolError("failed", `The ${name} connector reported an error: ${describe(error)}`);
  }
  return new ToolError("failed", `The ${name} connector sent an answer Patchbay could not read: ${describe(error)}`);
}
