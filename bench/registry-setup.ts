// The registry bench's wiring: the CONNECTORS admin connectors as database rows (their configs run
// bench/mcp-tool-server.ts over stdio), sessions bound to all of them, the connector lookup the app
// uses (server/mcp/mcp-runtime.ts's: connectors.ts' resolveConnector over the admin list; mcp-runtime.ts
// itself cannot be imported without the app's env), and an
// in-memory ConnectionPool that hands out the fixture's tool lists without any MCP I/O, so the warm
// figures time the registry (its Postgres reads and writes, naming, policy) and the renderers only.
import path from "node:path";

import type { Db } from "../server/db/client.ts";
import type { AdminConnector } from "../server/mcp/admin-file.ts";
import { parseConnectionKey } from "../server/mcp/connection-keys.ts";
import { ConnectionPool } from "../server/mcp/connection-pool.ts";
import { type McpCallResult, type McpTool } from "../server/mcp/connection-types.ts";
import { resolveConnector } from "../server/mcp/connector-config.ts";
import { McpRegistry } from "../server/mcp/registry.ts";
import { type ResolvedConnector } from "../server/mcp/registry-options.ts";
import { recordToolsChanged } from "../server/session/tools-changed.ts";
import { connectorToolLists } from "./registry-fixture.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const TOOL_SERVER = path.join(import.meta.dirname, "mcp-tool-server.ts");

export type Resolver = (connectorId: string) => Promise<ResolvedConnector | null>;

export type BenchConnectors = {
  ids: string[];
  /** As the app resolves a connector: one read of its row, its config from the admin list. */
  resolveLikeApp: Resolver;
  /** The same answers from memory (no database reads). */
  resolveFromMemory: Resolver;
  /** An in-memory pool: listTools answers with the cached lists at once, as a warm ConnectionPool does. */
  createInMemoryPool(): ConnectionPool;
};

/** Lists from memory; anything else this bench never does fails loudly. */
class InMemoryPool extends ConnectionPool {
  constructor(private readonly lists: Map<string, McpTool[]>) {
    super();
  }

  override listTools(key: string): Promise<McpTool[]> {
    const tools = this.lists.get(parseConnectionKey(key).connectorId); // stdio keys are per user: `id:user`
    return tools ? Promise.resolve(tools) : Promise.reject(new Error(`No tool list for connector ${key}.`));
  }

  override callTool(): Promise<McpCallResult> {
    return Promise.reject(new Error("The registry bench makes no tool calls."));
  }
}

export async function createBenchConnectors(db: Db): Promise<BenchConnectors> {
  const lists = connectorToolLists();
  const admin: AdminConnector[] = lists.map(({ name }, index) => ({
    name,
    disabled: false,
    config: {
      kind: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", TOOL_SERVER, String(index)],
      env: {},
      cwd: ROOT,
    },
  }));
  const rows = [];
  for (const { name } of lists)
    rows.push(await db.connector.create({ data: { source: "admin", name, transport: "stdio" } }));
  const resolved = new Map(
    rows.map((row, index) => [row.id, { id: row.id, name: row.name, config: admin[index]!.config }]),
  );
  const byId = new Map(rows.map((row, index) => [row.id, lists[index]!.tools]));
  return {
    ids: rows.map((row) => row.id),
    resolveLikeApp: (connectorId) => resolveConnector(db, connectorId, admin),
    resolveFromMemory: (connectorId) => Promise.resolve(resolved.get(connectorId) ?? null),
    createInMemoryPool: () => new InMemoryPool(byId),
  };
}

/** As the app wires it (server/session/app-runtime.ts): every committed revision is a tools.changed event. */
export function createBenchRegistry(db: Db, pool: ConnectionPool, resolveConnector: Resolver): McpRegistry {
  const onToolsChanged = recordToolsChanged(db);
  return new McpRegistry({
    db,
    pool,
    resolveConnector,
    onToolsChanged,
    toolTimeoutMs: 30_000,
    maxOutputChars: 100_000,
  });
}

/** Switches every bench connector on in the session (as setConnectorEnabled does, without the rebuilds). */
export async function bindAll(db: Db, sessionId: string, connectorIds: string[]): Promise<void> {
  await db.sessionConnector.createMany({ data: connectorIds.map((connectorId) => ({ sessionId, connectorId })) });
}
