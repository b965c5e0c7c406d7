// A chat engine wired to real MCP connectors, for integration tests of mid-turn tool changes (apply
// now): a fresh Postgres database, the fake provider, two admin connectors (`fixture`, `extra`)
// running our MCP fixture over stdio behind the real registry and connection pool, and a session
// manager whose tool source is that registry, counting every call it runs.
import { sharedFixtureStdioConfig } from "../mcp-fixture/launch.ts";
import { startFakeProvider } from "../fake-provider/server.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { McpRegistry } from "../../../server/mcp/registry.ts";
import type { RegistryOptions } from "../../../server/mcp/registry-options.ts";
import { setConnectorEnabled } from "../../../server/mcp/session-tools.ts";
import { setToolPolicy } from "../../../server/policy/connector-policy.ts";
import { recordToolsChanged } from "../../../server/session/tools-changed.ts";
import type { SessionManager } from "../../../server/session/manager.ts";
import { startListening, stopListening } from "../../../server/db/notifier.ts";
import type { ToolSource } from "../../../server/core/tool-source.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { createManager, createUserWithSession, type FakeProvider } from "./engine.ts";

export type ConnectorName = "fixture" | "extra";
type ResolveConnector = RegistryOptions["resolveConnector"];

export type ConnectorBed = {
  database: TestDatabase;
  fake: FakeProvider;
  registry: McpRegistry;
  /** What session-tools.ts needs (the Tools panel). */
  deps: { db: TestDatabase["db"]; registry: McpRegistry; pool: ConnectionPool; resolveConnector: ResolveConnector };
  manager: SessionManager;
  /** Canonical names of the tool calls that ran, in order (clear it per test). */
  calls: string[];
  /** A new user's chat with `fixture` on (at `revision`), `extra` off; exposed names of two fixture tools. */
  chatWithFixture(): Promise<{ userId: string; sessionId: string; revision: number; slow: string; echo: string }>;
  /** Switches a connector in a chat; the chat's new tool revision. */
  setConnector(userId: string, sessionId: string, name: ConnectorName, enabled: boolean): Promise<number>;
  /** Makes one `fixture` tool (by its MCP name) wait for the user's approval in a chat. */
  askBefore(userId: string, sessionId: string, toolName: string): Promise<void>;
  close(): Promise<void>;
};

export async function startConnectorBed(): Promise<ConnectorBed> {
  const database = await createTestDatabase();
  const fake = await startFakeProvider({});
  await startListening(database.url);
  const { db } = database;
  const connectors: Record<ConnectorName, string> = { fixture: "", extra: "" };
  for (const name of ["fixture", "extra"] as const) {
    connectors[name] = (await db.connector.create({ data: { source: "admin", name, transport: "stdio" } })).id;
  }
  // One process for every user (`"shared": true`): these beds test turns and policy, not isolation
  // (per-user processes: server/mcp/per-user-stdio.integration.test.ts), and a spawn per user is slow.
  const config = sharedFixtureStdioConfig();
  const resolveConnector = (id: string) => {
    const name = Object.entries(connectors).find(([, connectorId]) => connectorId === id)?.[0];
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
    toolTimeoutMs: 10_000,
    maxOutputChars: 10_000,
  });
  events.registry = registry;
  const deps = { db, registry, pool, resolveConnector };
  const calls: string[] = [];
  const tools: ToolSource = {
    snapshot: (sessionId) => registry.snapshot(sessionId),
    call: (sessionId, request, signal) => {
      calls.push(request.canonicalName);
      return registry.call(sessionId, request, signal);
    },
  };
  const manager = createManager(db, fake, { tools });
  manager.start();

  const setConnector = async (userId: string, sessionId: string, name: ConnectorName, enabled: boolean) =>
    (await setConnectorEnabled(deps, userId, { sessionId, connectorId: connectors[name], enabled })).revision;
  const chatWithFixture = async () => {
    const ids = await createUserWithSession(db);
    const revision = await setConnector(ids.userId, ids.sessionId, "fixture", true);
    const snapshot = await registry.snapshot(ids.sessionId);
    const exposed = (name: string) => snapshot.tools.find((tool) => tool.canonicalName === name)!.exposedName;
    return { ...ids, revision, slow: exposed("fixture.slow"), echo: exposed("fixture.echo") };
  };
  const askBefore = async (userId: string, sessionId: string, toolName: string) => {
    const input = { sessionId, connectorId: connectors.fixture, toolName, policy: "ask" as const };
    await setToolPolicy({ db, registry }, userId, input);
  };
  const close = async () => {
    await manager.stop();
    await pool.closeAll();
    await stopListening();
    await fake.close();
    await database.drop();
  };
  return { database, fake, registry, deps, manager, calls, chatWithFixture, setConnector, askBefore, close };
}
