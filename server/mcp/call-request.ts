// One tools/call over a connected MCP client (mcp-connection.ts), with the caller's signal, timeout
// and progress callback, answering the result as an McpCallResult. Errors are thrown as the SDK
// raised them; the connection turns them into ToolErrors (call-errors.ts).
import { type Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

import { type JsonValue } from "../core/canonical.ts";
import type { McpCallOptions, McpCallResult } from "./connection-types.ts";
import type { ProgressListeners } from "./progress-watch.ts";

let progressTokens = 0;

/**
 * `progress`: the connection's listeners fed straight off its transport (progress-watch.ts). The call
 * registers `onProgress` there under a token of its own, not with the SDK: the SDK dispatches a
 * notification a microtask after a response, so the last progress would lose the race to the result.
 */
export async function requestToolCall(
  client: Client,
  name: string,
  args: Record<string, JsonValue>,
  options: McpCallOptions,
  progress: ProgressListeners,
): Promise<McpCallResult> {
  const { signal, timeoutMs, onProgress } = options;
  // A per-call signal: the SDK never removes its abort listener, so a long-lived turn signal would
  // collect one per call and, when aborted, send notifications/cancelled for long-finished requests.
  const callSignal = new AbortController();
  const forwardAbort = () => callSignal.abort(signal.reason);
  signal.addEventListener("abort", forwardAbort, { once: true });
  const progressToken = onProgress ? `patchbay-${++progressTokens}` : undefined;
  if (progressToken && onProgress) progress.set(progressToken, onProgress);
  try {
    const result = await client.request(
      { method: "tools/call", params: { name, arguments: args, ...(progressToken && { _meta: { progressToken } }) } },
      CallToolResultSchema,
      { signal: callSignal.signal, timeout: timeoutMs },
    );
    return {
      // Parsed from JSON by the SDK, so it is JSON by construction.
      content: result.content as JsonValue,
      ...(result.structuredContent && { structuredContent: result.structuredContent as JsonValue }),
      isError: result.isError === true,
    };
  } finally {
    signal.removeEventListener("abort", forwardAbort);
    if (progressToken) progress.delete(progressToken);
  }
}
