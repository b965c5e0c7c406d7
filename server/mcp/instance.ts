// This process's MCP side, wired from env: the admin connectors (read from MCP_SERVERS_FILE and
// synced into the database at start), the connection pool, and the registry that turns use as
// their ToolSource. A connector's list_changed or health change rebuilds every session using it.
import { getDb } from "../db.ts";
import { env } from "../env.ts";
import { loadAdminConnectors, type AdminConnector } from "./admin-file.ts";
import { ConnectionPool } from "./connections.ts";
import { resolveConnector as resolveConnectorRow, syncAdminConnectors } from "./connectors.ts";
import { McpRegistry, type ResolvedConnector } from "./registry.ts";
import { assertPublicUrl } from "./url-guard.ts";

type McpRuntime = {
  db: Awaited<ReturnType<typeof getDb>>;
  registry: McpRegistry;
  pool: ConnectionPool;
  adminConnectors: AdminConnector[];
  resolveConnector: (connectorId: string) => Promise<ResolvedConnector | null>;
};

const globalForMcp = globalThis as unknown as { patchbayMcp?: Promise<McpRuntime> };

async function createRuntime(): Promise<McpRuntime> {
  const db = await getDb();
  const adminConnectors = await loadAdminConnectors(env.MCP_SERVERS_FILE);
  await syncAdminConnectors(db, adminConnectors);
  const events = { registry: null as McpRegistry | null };
  const adminUrls = new Set(adminConnectors.flatMap((c) => (c.config.kind === "stdio" ? [] : [c.config.url])));
  const pool = new ConnectionPool({
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
    onHealthChanged: (key) => void events.registry?.rebuildForConnector(key, "health"),
    // Re-checked at every connect: DNS answers change. The admin file is trusted as written.
    checkUrl: (url) =>
      adminUrls.has(url) ? Promise.resolve() : assertPublicUrl(url, { allowPrivate: env.MCP_ALLOW_PRIVATE_URLS }),
  });
  const resolveConnector = (connectorId: string): Promise<ResolvedConnector | null> =>
    resolveConnectorRow(db, connectorId, adminConnectors);
  const registry = new McpRegistry({
    db,
    pool,
    resolveConnector,
    toolTimeoutMs: env.TOOL_TIMEOUT_MS,
    maxOutputChars: env.MCP_TOOL_OUTPUT_MAX_CHARS,
  });
  events.registry = registry;
  return { db, registry, pool, adminConnectors, resolveConnector };
}

export function getMcpRuntime(): Promise<McpRuntime> {
  globalForMcp.patchbayMcp ??= createRuntime().catch((error: unknown) => {
    globalForMcp.patchbayMcp = undefined;
    throw error;
  });
  return globalForMcp.patchbayMcp;
}
