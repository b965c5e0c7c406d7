// The transport of one connection (mcp-connection.ts), and the end of its stdio child. HTTP and SSE:
// the SSRF check first (remote-access.ts), then every request, the OAuth flow included, goes through
// the remote fetch, with the key's OAuth provider if it has one. Stdio: a per-user process gets its
// `${PATCHBAY_USER_DIR}` (user-dir.ts); a shared one has none to get. Connecting is bounded by the
// connection's timeout, and progress notifications go straight to the connection's listeners.
import { type Client } from "@modelcontextprotocol/sdk/client/index.js";

import { untilAborted } from "./call-errors.ts";
import { parseConnectionKey } from "./connection-keys.ts";
import { type ConnectionPoolOptions } from "./connection-types.ts";
import { watchProgress, type ProgressListeners } from "./progress-watch.ts";
import { type ConnectorConfig, type CreatedTransport, createTransport, type LineTail } from "./transports.ts";
import { USER_DIR_PLACEHOLDER, userDirFor, usesUserDir, withUserDir } from "./user-dir.ts";

export type TransportNeeds = { stderr: LineTail; progress: ProgressListeners; timeoutMs: number };

/** Connects `client` (initialize) over a new transport for `key`; returns the stdio child's pid getter. */
export async function connectClient(
  client: Client,
  key: string,
  config: ConnectorConfig,
  options: ConnectionPoolOptions,
  needs: TransportNeeds,
): Promise<() => number | null> {
  const created = await openTransport(key, config, options, needs.stderr);
  // No signal for the SDK here: it would keep its listener and "cancel" initialize after success.
  const timeout = AbortSignal.timeout(needs.timeoutMs);
  await untilAborted(client.connect(created.transport, { timeout: needs.timeoutMs }), timeout);
  watchProgress(created.transport, needs.progress);
  return created.childPid;
}

async function openTransport(
  key: string,
  config: ConnectorConfig,
  options: ConnectionPoolOptions,
  stderr: LineTail,
): Promise<CreatedTransport> {
  if (config.kind === "stdio") return createTransport(await stdioConfig(key, config, options.userDataDir), stderr);
  const { remote, authProvider } = options;
  await remote?.checkUrl(config.url);
  return createTransport(config, stderr, authProvider?.(key), remote?.fetchFor(config.url));
}

async function stdioConfig(key: string, config: Extract<ConnectorConfig, { kind: "stdio" }>, root?: string) {
  if (!usesUserDir(config)) return config;
  const { connectorId, userId } = parseConnectionKey(key);
  if (userId === null || !root) {
    throw new Error(`${USER_DIR_PLACEHOLDER} is only available to a per-user server`);
  }
  return withUserDir(config, userDirFor(root, connectorId, userId));
}

/**
 * Sends SIGTERM to a stdio child, synchronously: the last resort when the process is exiting before
 * a connection's close() could finish (shutdown.ts). Returns the pid signalled, or null when it was
 * already gone.
 */
export function killChild(pid: number): number | null {
  try {
    process.kill(pid, "SIGTERM");
    return pid;
  } catch {
    return null; // already gone
  }
}
