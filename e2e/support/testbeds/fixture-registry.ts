// The MCP wiring the connector and policy beds share (connector-bed.ts, policy-testbed.ts): admin
// connectors that all run our MCP fixture over stdio, one process for every user, behind a real
// connection pool and registry; a connector's tools/list_changed rebuilds its chats, and each
// committed revision is recorded as a `tools.changed` event, as in the app (mcp-runtime.ts).
import { sharedFixtureStdioConfig } from "../mcp-fixture/launch.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { McpRegistry } from "../../../server/mcp/registry.ts";
import type { RegistryOptions } from "../../../server/mcp/registry-options.ts";
import { recordToolsChanged } from "../../../server/session/tools-changed.ts";
import type { TestDatabase } from "./database.ts";

export type ResolveConnector = RegistryOptions["resolveConnector"];
export type FixtureRegistry = {
  pool: ConnectionPool;
  registry: McpRegistry;
  /** What session-tools.ts needs (the Tools panel). */
  deps: { db: TestDatabase["db"]; registry: McpRegistry; pool: ConnectionPool; resolveConnector: ResolveConnector };
};

/** `nameOf`: the name of the fixture connector with this id, or undefined for none. */
export function wireFixtureRegistry(
  db: TestDatabase["db"],
  nameOf: (connectorId: string) => string | undefined,
  toolTimeoutMs: number,
): FixtureRegistry {
  // One process for every user (`"shared": true`): these beds test turns and policy, not isolation
  // (per-user processes: server/mcp/per-user-stdio.integration.test.ts), and a spawn per user is slow.
  const config = sharedFixtureStdioConfig();
  const resolveConnector = (id: string) => {
    const name = nameOf(id);
    return Promise.resolve(name ? { id, name, config } : null);
  };
  const events = { registry: null as McpRegistry | null };
  const pool = new ConnectionPool({
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
  });
  const registry = new McpRegistry({
    db,
    pool,
    resolveConnector,
    onToolsChanged: recordToolsChanged(db),
    toolTimeoutMs,
    maxOutputChars: 10_000,
  });
  events.registry = registry;
  return { pool, registry, deps: { db, registry, pool, resolveConnector } };
}
