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
export function callFailure(error: unknown, key: string, timeoutMs: number): ToolError {
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return new ToolError("timeout", `The ${key} connector did not answer within ${formatSeconds(timeoutMs)}.`);
  }
  if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) {
    return new ToolError("failed", `The ${key} connector disconnected during the call.`);
  }
  if (error instanceof McpError) {
    return new ToolError("failed", `The ${key} connector reported an error: ${describe(error)}`);
  }
  return new ToolError("failed", `The ${key} connector sent an answer Patchbay could not read: ${describe(error)}`);
}
