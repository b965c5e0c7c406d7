// The vocabulary of MCP connections, shared by the pool (connection-pool.ts), each connection
// (mcp-connection.ts) and the code that lists and calls tools: a tool as a server lists it, a
// connection's health, progress, call options and results, and the pool's options. Types only.
import { type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";

import { type JsonValue } from "../core/canonical.ts";
import type { RemoteAccess } from "./remote-access.ts";

/** `readOnly`: the server marks the tool read-only (MCP annotations.readOnlyHint: true); absent otherwise. */
export type McpTool = {
  name: string;
  description: string;
  inputSchema: Record<string, JsonValue>;
  readOnly?: true;
};
/** `needs_authorization`: the server wants the user to connect their account (OAuth) first. */
export type ConnectionHealth = "idle" | "connecting" | "ready" | "unhealthy" | "needs_authorization" | "closed";
export type ToolProgress = { progress: number; total?: number; message?: string };
export type McpCallOptions = { signal: AbortSignal; timeoutMs: number; onProgress?: (progress: ToolProgress) => void };
/** A tools/call result: `content` is the MCP content block array, as the server sent it. */
export type McpCallResult = { content: JsonValue; structuredContent?: JsonValue; isError: boolean };
export type ConnectionPoolOptions = {
  onToolsChanged?: (key: string) => void;
  /** A connection settled into another state (`connecting` is never reported; see mcp-connection.ts). */
  onHealthChanged?: (key: string, health: ConnectionHealth) => void;
  /** Bound on spawning + initialize, and on each tools/list page. Default 10 s. */
  connectTimeoutMs?: number;
  listChangedDebounceMs?: number;
  /** How the operator's log names a connection (e.g. the connector's name); default: the key. */
  describeKey?: (key: string) => string;
  /**
   * The connector's name, for every message a user or a model reads (a ToolError, `lastError`):
   * keys hold ids (connection-keys.ts), which must not reach them. Default: the key.
   */
  nameOf?: (key: string) => string | undefined;
  /**
   * How HTTP/SSE connections reach their URL (remote-access.ts): `checkUrl` before every connect
   * (throw to refuse) and the fetch every request of the connection, OAuth included, goes through.
   */
  remote?: RemoteAccess;
  /**
   * The OAuth provider for an HTTP/SSE connection, or undefined for none. OAuth tokens belong to one
   * user, so a key that gets a provider must be per user (see connection-keys.ts). A connection that
   * needs the user to authorize turns `needs_authorization`, fails with a ToolError and waits (no
   * background retries, which would restart the flow).
   */
  authProvider?: (key: string) => OAuthClientProvider | undefined;
  /** Stop a per-user stdio process after this long unused (ms); 0 or absent: never (MCP_STDIO_IDLE_MS). */
  idleTimeoutMs?: number;
  /** Where per-user stdio servers get their `${PATCHBAY_USER_DIR}` (user-dir.ts); PATCHBAY_DATA_DIR. */
  userDataDir?: string;
};
