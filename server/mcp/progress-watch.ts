// Progress notifications read straight off a transport. The SDK's Client dispatches a notification a
// microtask after the message that carried it, while it settles a response at once, so when a server
// sends its last progress and its result together (stdio does), the SDK has already forgotten the
// request and drops that progress. Listening on the transport before the SDK sees the message keeps
// the server's order: every progress of a call is delivered before its result. Calls register a
// listener under their own progressToken (connection.ts) and remove it when they settle.
import { type Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

import type { ToolProgress } from "./connection-types.ts";

export type ProgressListeners = Map<string | number, (progress: ToolProgress) => void>;

/** Wraps the transport's message handler (installed by Client.connect) to feed `listeners` first. */
export function watchProgress(transport: Transport, listeners: ProgressListeners): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method === "notifications/progress") {
      const parsed = ProgressNotificationSchema.safeParse(message);
      if (parsed.success) {
        const { progressToken, progress, total, message: text } = parsed.data.params;
        try {
          listeners.get(progressToken)?.({ progress, total, message: text });
        } catch {
          // A listener's own failure; the message still reaches the SDK.
        }
      }
    }
    deliver?.(message, extra);
  };
}
