// The registry's changes as session events: each tool revision the registry commits becomes a
// `tools.changed` event in the session's log (with its revision and reason), written before the
// rebuild that made it returns, so a browser following the log learns of it in order.
import type { Db } from "../db/client.ts";
import type { ToolsChangedListener } from "../mcp/registry-options.ts";
import { appendEvent } from "./event-log.ts";

/** The registry's `onToolsChanged`: each revision it commits becomes a `tools.changed` event. */
export function recordToolsChanged(db: Db): ToolsChangedListener {
  return async ({ sessionId, revision, reason }) => {
    await appendEvent(db, { sessionId, type: "tools.changed", data: { revision, reason } });
  };
}
