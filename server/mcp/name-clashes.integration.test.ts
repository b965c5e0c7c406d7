// A name clash the admin creates after the fact: a user has a connector named "fixture", then the
// admin file gains a "fixture" server. With both on in a chat, their tools must not merge under one
// canonical name: the admin's stay, the user's are left out, and the Tools panel says why on the
// user's connector. Real Postgres, our MCP fixture server over stdio behind both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession } from "../../e2e/support/testbeds/engine.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import { type ResolvedConnector } from "./registry-options.ts";
import { getSessionTools, setConnectorEnabled } from "./session-tools.ts";

let database: TestDatabase;
let pool: ConnectionPool;
let deps: Parameters<typeof getSessionTools>[0];
const names = new Map<string, string>();

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new ConnectionPool();
  const config = fixtureStdioConfig();
  const resolveConnector = (id: string): Promise<ResolvedConnector | null> => {
    const name = names.get(id);
    return Promise.resolve(name === undefined ? null : { id, name, config });
  };
  const registry = new McpRegistry({
    db: database.db,
    pool,
    resolveConnector,
    toolTimeoutMs: 5_000,
    maxOutputChars: 10_000,
  });
  deps = { db: database.db, registry, pool, resolveConnector };
});

afterAll(async () => {
  await pool.closeAll();
  await database.drop();
});

describe("a connector named like one the admin adds later", () => {
  it("is left out of the chat's tools, with the reason on it in the panel, and comes back once the admin's is off", async () => {
    const { userId, sessionId } = await createUserWithSession(database.db, "Clash");
    const own = await database.db.connector.create({
      data: { source: "user", ownerId: userId, name: "fixture", transport: "sse", url: "https://93.184.215.14/sse" },
    });
    names.set(own.id, "fixture");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: own.id, enabled: true });
    const before = await deps.registry.snapshot(sessionId);
    expect(before.tools.find((tool) => tool.canonicalName === "fixture.echo")?.connectorId).toBe(own.id);

    const admin = await database.db.connector.create({
      data: { source: "admin", name: "fixture", transport: "stdio" },
    });
    names.set(admin.id, "fixture");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: admin.id, enabled: true });

    const after = await deps.registry.snapshot(sessionId);
    const fixtureTools = after.tools.filter((tool) => tool.canonicalName.startsWith("fixture."));
    expect(fixtureTools.length).toBeGreaterThan(0);
    expect(new Set(fixtureTools.map((tool) => tool.connectorId))).toEqual(new Set([admin.id]));
    expect(new Set(after.tools.map((tool) => tool.canonicalName)).size).toBe(after.tools.length);

    const panel = await getSessionTools(deps, userId, sessionId);
    const ownRow = panel.connectors.find((connector) => connector.id === own.id)!;
    expect(ownRow).toMatchObject({ enabled: true, tools: [] });
    expect(ownRow.conflict).toBe(
      'Left out: the administrator\'s connector "fixture" has the same name, so their tool names would clash. Rename it in Settings → Connectors to use it here.',
    );
    expect(panel.connectors.find((connector) => connector.id === admin.id)?.conflict).toBeNull();

    await setConnectorEnabled(deps, userId, { sessionId, connectorId: admin.id, enabled: false });
    const restored = await deps.registry.snapshot(sessionId);
    expect(restored.tools.find((tool) => tool.canonicalName === "fixture.echo")?.connectorId).toBe(own.id);
    const panelAgain = await getSessionTools(deps, userId, sessionId);
    expect(panelAgain.connectors.find((connector) => connector.id === own.id)?.conflict).toBeNull();
  });
});
