// A second app instance's MCP side for multi-process tests: `tsx e2e/support/testbeds/mcp-instance-process.ts
// <json>` with { databaseUrl, instanceId, ttlMs, connectors: [{ id, name, config }] } wires a pool,
// a registry and the health board (health-board.ts) the way server/mcp/mcp-runtime.ts does, opens each
// connector's shared connection, prints {"ready": true} once all are reachable and on the board, and
// runs until it is killed (SIGKILL: a crash, its board rows left to age out).
import { createDbClient } from "../../../server/db/client.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { HealthBoard, reportHealth, startHeartbeat } from "../../../server/mcp/health-board.ts";
import { McpRegistry } from "../../../server/mcp/registry.ts";
import type { ResolvedConnector } from "../../../server/mcp/registry-options.ts";

type Args = { databaseUrl: string; instanceId: string; ttlMs: number; connectors: ResolvedConnector[] };

const args = JSON.parse(process.argv[2] ?? "{}") as Args;
const db = createDbClient(args.databaseUrl);
const board = new HealthBoard(db, args.instanceId, args.ttlMs);
const events = { registry: null as McpRegistry | null };
const pool = new ConnectionPool({
  nameOf: (key) => args.connectors.find((connector) => connector.id === key)?.name,
  onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
  onHealthChanged: (key, health) =>
    void reportHealth(board, key, health).finally(() => events.registry?.rebuildForConnector(key, "health")),
});
const resolveConnector = (id: string) =>
  Promise.resolve(args.connectors.find((connector) => connector.id === id) ?? null);
events.registry = new McpRegistry({
  db,
  pool,
  resolveConnector,
  toolTimeoutMs: 10_000,
  maxOutputChars: 10_000,
  reachableElsewhere: (key) => board.reachableElsewhereFor(key),
});
startHeartbeat(board, pool);
for (const connector of args.connectors) {
  await pool.listTools(connector.id, connector.config);
  await board.report(connector.id, true);
}
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
