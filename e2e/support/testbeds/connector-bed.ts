// A chat engine wired to real MCP connectors, for integration tests of mid-turn tool changes (apply
// now): a fresh Postgres database, the fake provider, two admin connectors (`fixture`, `extra`)
// running our MCP fixture over stdio behind the real registry and connection pool, and a session
// manager whose tool source is that registry, counting every call it runs.
import { startFakeProvider } from "../fake-provider/server.ts";
import type { McpRegistry } from "../../../server/mcp/registry.ts";
import { setConnectorEnabled } from "../../../server/mcp/session-tools.ts";
import { setToolPolicy } from "../../../server/policy/connector-policy.ts";
import type { SessionManager } from "../../../server/session/manager.ts";
import { startListening, stopListening } from "../../../server/db/notifier.ts";
import type { ToolSource } from "../../../server/core/tool-source.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { createManager, createUserWithSession, type FakeProvider } from "./engine.ts";
import { type FixtureRegistry, wireFixtureRegistry } from "./fixture-registry.ts";

export type ConnectorName = "fixture" | "extra";

export type ConnectorBed = {
  database: TestDatabase;
  fake: FakeProvider;
  registry: McpRegistry;
  deps: FixtureRegistry["deps"];
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
  const nameOf = (id: string) => Object.entries(connectors).find(([, connectorId]) => connectorId === id)?.[0];
  const { pool, registry, deps } = wireFixtureRegistry(db, nameOf, 10_000);
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
