// A testbed for tool-policy integration tests: a fresh Postgres database, the fake provider, the MCP
// fixture as an admin connector behind a real registry, and two SessionManagers on the same database
// with different instance ids (`manager` runs the turns; `second` stands for another app instance).
// Both use DEFAULT_SYSTEM as the system prompt of chats without a persona.
import { startFakeProvider } from "../fake-provider/server.ts";
import { type RegistryTool } from "../../../server/mcp/registry-tool.ts";
import { setConnectorEnabled } from "../../../server/mcp/session-tools.ts";
import type { ManagerOptions, SessionManager } from "../../../server/session/manager.ts";
import { startListening, stopListening } from "../../../server/db/notifier.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { createManager, createUserWithSession, TEST_MODELS, waitFor, type FakeProvider } from "./engine.ts";
import { wireFixtureRegistry } from "./fixture-registry.ts";

export const DEFAULT_SYSTEM = "DEFAULT SYSTEM PROMPT of this instance.";
export const ANTHROPIC = { provider: "anthropic", model: TEST_MODELS.anthropic } as const;

export type PolicyTestbed = Awaited<ReturnType<typeof createPolicyTestbed>>;

export async function createPolicyTestbed() {
  const database: TestDatabase = await createTestDatabase();
  const { db } = database;
  const fake: FakeProvider = await startFakeProvider({});
  await startListening(database.url);
  const connector = await db.connector.create({ data: { source: "admin", name: "fixture", transport: "stdio" } });
  const nameOf = (id: string) => (id === connector.id ? "fixture" : undefined);
  const { pool, registry, deps } = wireFixtureRegistry(db, nameOf, 5_000);
  const managers: SessionManager[] = [];
  /** A manager on this testbed's database, registry and fake provider; stopped by close(). */
  const startManager = (overrides: Partial<ManagerOptions> = {}) => {
    const manager = createManager(db, fake, { tools: registry, system: DEFAULT_SYSTEM, ...overrides });
    manager.start();
    managers.push(manager);
    return manager;
  };
  const manager = startManager({ instanceId: "instance-a" });
  const second = startManager({ instanceId: "instance-b" });

  return {
    database,
    db,
    fake,
    registry,
    deps,
    connectorId: connector.id,
    manager,
    second,
    startManager,
    /** A user with a chat that has the fixture connector switched on. */
    async chatWithFixture(name = "User") {
      const ids = await createUserWithSession(db, name);
      await setConnectorEnabled(deps, ids.userId, { ...ids, connectorId: connector.id, enabled: true });
      return ids;
    },
    async tool(sessionId: string, canonicalName: string): Promise<RegistryTool | undefined> {
      return (await registry.snapshot(sessionId)).tools.find((tool) => tool.canonicalName === canonicalName);
    },
    /** The first event of `type` in the turn, once it exists. */
    async event(turnId: string, type: string) {
      const row = await waitFor(
        () => db.sessionEvent.findFirst({ where: { turnId, type }, orderBy: { id: "asc" } }),
        (found) => !!found,
      );
      return row!.data as Record<string, unknown>;
    },
    async close() {
      for (const running of managers) await running.stop();
      await pool.closeAll();
      await stopListening();
      await fake.close();
      await database.drop();
    },
  };
}
