// This process's MCP side, wired from env: the admin connectors (read from MCP_SERVERS_FILE and
// synced into the database at start), the connection pool, and the registry that turns use as
// their ToolSource. A connector's list_changed or health change rebuilds every session using it;
// health is shared with the other instances through the board (health-board.ts).
// The session layer creates it once per process (session/app-runtime.ts) and passes `onToolsChanged`,
// so every committed revision is recorded for the browsers before anything can rebuild.
// Connections with per-user credentials (connection-keys.ts) carry their user's McpOAuthProvider
// over the Postgres token store; those never start an authorization themselves (`background`):
// the user does, from the UI (oauth-accounts.ts). installShutdown wires the graceful shutdown
// (shutdown.ts) once per process, so no stdio MCP server outlives the app.
import { randomUUID } from "node:crypto";

import { getDb } from "../db/client.ts";
import { env } from "../env.ts";
import { loadAdminConnectors, type AdminConnector } from "./admin-file.ts";
import { parseConnectionKey } from "./connection-keys.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { HealthBoard, reportHealth, startHeartbeat } from "./health-board.ts";
import { resolveConnector as resolveConnectorRow } from "./connector-config.ts";
import { syncAdminConnectors } from "./admin-connector-sync.ts";
import { type OAuthAccountDeps } from "./oauth-accounts.ts";
import { McpOAuthProvider } from "./oauth-provider.ts";
import { PrismaMcpTokenStore } from "./oauth-store.ts";
import { McpRegistry } from "./registry.ts";
import { type ResolvedConnector, type ToolsChangedListener } from "./registry-options.ts";
import { createRemoteAccess, type RemoteAccess } from "./remote-access.ts";
import { installGracefulShutdown } from "./shutdown.ts";

export type McpRuntime = {
  db: Awaited<ReturnType<typeof getDb>>;
  registry: McpRegistry;
  pool: ConnectionPool;
  remote: RemoteAccess & { close(): Promise<void> };
  adminConnectors: AdminConnector[];
  resolveConnector: (connectorId: string) => Promise<ResolvedConnector | null>;
  oauth: OAuthAccountDeps;
};

const globalForMcp = globalThis as unknown as { patchbayShutdown?: boolean };

export async function createMcpRuntime(hooks: { onToolsChanged: ToolsChangedListener }): Promise<McpRuntime> {
  const db = await getDb();
  const adminConnectors = await loadAdminConnectors(env.MCP_SERVERS_FILE);
  await syncAdminConnectors(db, adminConnectors);
  const events = { registry: null as McpRegistry | null };
  // Checked at every connect and pinned per request (DNS answers change); the admin file is trusted as written.
  const remote = createRemoteAccess({
    allowPrivate: env.MCP_ALLOW_PRIVATE_URLS,
    trustedUrls: adminConnectors.flatMap((c) => (c.config.kind === "stdio" ? [] : [c.config.url])),
  });
  const store = new PrismaMcpTokenStore(db);
  // Connector names by id, as resolved: the operator's log names a failing connection by them.
  const names = new Map<string, string>();
  const board = new HealthBoard(db, randomUUID());
  const pool = new ConnectionPool({
    describeKey: (key) => {
      const name = names.get(parseConnectionKey(key).connectorId);
      return name === undefined ? key : `"${name}" (${key})`;
    },
    // Every pool use follows a resolveConnector, which records the name.
    nameOf: (key) => names.get(parseConnectionKey(key).connectorId) ?? "MCP",
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
    // Written on the shared board first, so this instance's rebuild (and the others') reads it.
    onHealthChanged: (key, health) =>
      void reportHealth(board, key, health)
        .catch((error: unknown) => console.warn("[patchbay] MCP health report failed:", (error as Error).message))
        .finally(() => events.registry?.rebuildForConnector(key, "health")),
    remote,
    idleTimeoutMs: env.MCP_STDIO_IDLE_MS,
    userDataDir: env.PATCHBAY_DATA_DIR,
    authProvider: (key) => {
      const { connectorId, userId } = parseConnectionKey(key);
      if (userId === null) return undefined;
      return new McpOAuthProvider({
        owner: { userId, connectorId },
        store,
        baseUrl: oauthBaseUrl(),
        mode: "background",
      });
    },
  });
  const resolveConnector = async (connectorId: string): Promise<ResolvedConnector | null> => {
    const resolved = await resolveConnectorRow(db, connectorId, adminConnectors);
    if (resolved) names.set(resolved.id, resolved.name);
    return resolved;
  };
  const registry = new McpRegistry({
    db,
    pool,
    resolveConnector,
    onToolsChanged: hooks.onToolsChanged,
    toolTimeoutMs: env.TOOL_TIMEOUT_MS,
    maxOutputChars: env.MCP_TOOL_OUTPUT_MAX_CHARS,
    reachableElsewhere: (key) => board.reachableElsewhereFor(key),
  });
  events.registry = registry;
  startHeartbeat(board, pool);
  const oauth: OAuthAccountDeps = { db, pool, registry, resolveConnector, store, remote };
  return { db, registry, pool, remote, adminConnectors, resolveConnector, oauth };
}

/**
 * Patchbay's public origin for the OAuth redirect (`/api/mcp-oauth/callback`): AUTH_URL, else the
 * origin the browser used, else the local default. Background connections never start an
 * authorization, so the fallback only names the redirect in a first dynamic registration.
 */
export function oauthBaseUrl(requestOrigin?: string | null): string {
  return env.AUTH_URL ?? requestOrigin ?? `http://localhost:${env.PORT}`;
}

/**
 * Installs the graceful shutdown once per process: on SIGTERM / SIGINT / SIGHUP the pool stops
 * reconnecting at once, then `stopTurns` (the session manager's stop) runs, then the MCP pool closes
 * (ending every stdio child) and the HTTP agents close.
 */
export function installShutdown(runtime: Pick<McpRuntime, "pool" | "remote">, stopTurns: () => Promise<void>): void {
  if (globalForMcp.patchbayShutdown) return;
  globalForMcp.patchbayShutdown = true;
  const { pool, remote } = runtime;
  installGracefulShutdown({
    begin: () => pool.beginShutdown(),
    steps: [
      { name: "session manager", run: stopTurns },
      { name: "MCP connections", run: () => pool.closeAll() },
      { name: "remote MCP HTTP agents", run: () => remote.close() },
    ],
    killChildrenNow: () => void pool.killChildrenNow(),
  });
}
