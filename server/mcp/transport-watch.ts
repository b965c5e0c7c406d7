// How a live MCP connection (mcp-connection.ts) treats the errors its client reports outside any
// request: the transport is watched, not trusted. An HTTP stream that breaks is followed by a ping,
// and a server that does not answer it (or an SSE stream that breaks: its session dies with it) is
// gone, so the connection closes at once and every pending call fails with "went away" instead of at
// its timeout. A 404 for the session (spec: "start a new session") means the server restarted and
// is up: the session is renewed, health unchanged.
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { type Client } from "@modelcontextprotocol/sdk/client/index.js";

import { describe, isSessionLost, isStreamRefused, isStreamTrouble } from "./call-errors.ts";

/** How long the ping after a broken HTTP stream may take before the server counts as gone. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * What a client error means: `ignore` (late answers to cancelled requests, and progress
 * notifications, which progress-watch.ts delivers itself), `watch` (a broken stream, checked before
 * anybody is told; a lost session, renewed by the request that met it), else `record` as the last
 * error. A refused standalone GET stream is an answer: the server is there, and a lost session shows
 * on the next request (renewed there); probing would restart an authorization under way.
 */
export function clientErrorAction(error: Error): "ignore" | "watch" | "record" {
  if (/^Received a (response|progress notification) for an unknown/.test(error.message)) return "ignore";
  if (isStreamRefused(error)) return "record";
  return isStreamTrouble(error) || isSessionLost(error) ? "watch" : "record";
}

export type WatchActions = {
  /** The client is still the connection's live one. */
  isCurrent: () => boolean;
  /** The server is gone: close the connection with this reason. */
  lose: (reason: string) => void;
  /** The server is up but forgot the session: open a new one in the background. */
  renewSession: () => void;
};

/**
 * After a transport error on a live HTTP or SSE connection: an SSE stream that broke took its
 * session with it (lost at once, no probe: returns null); an HTTP stream is pinged, and the promise
 * settles when the ping has decided.
 */
export function probeTransport(
  client: Client,
  kind: "streamable-http" | "sse",
  error: Error,
  actions: WatchActions,
): Promise<void> | null {
  if (kind === "sse") {
    actions.lose(`The server went away (${describe(error)}).`);
    return null;
  }
  return client.ping({ timeout: PROBE_TIMEOUT_MS }).then(
    () => undefined,
    (failure: unknown) => {
      // An answer that asks for authorization is an answer: the server is there, and the request
      // that needs the authorization reports it to its caller.
      if (!actions.isCurrent() || failure instanceof UnauthorizedError) return;
      if (isSessionLost(failure)) actions.renewSession();
      else actions.lose(`The server went away (${describe(failure)}).`);
    },
  );
}
