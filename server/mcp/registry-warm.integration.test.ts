// A warm rebuild's shortcuts, against real Postgres and the MCP fixture over stdio, with the app's
// connector lookup (connector-config.ts over an admin list):
// - a connector's config is looked up once per row content, for every chat of this process, and
//   again as soon as its row changes; a lookup that finds nothing is never kept;
// - a rebuild that composes exactly the revision it read writes nothing (one round trip: the state);
//   one that composes anything else commits, even when this process built the same tools before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sharedFixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession } from "../../e2e/support/testbeds/engine.ts";
import type { AdminConnector } from "./admin-file.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { resolveConnector as resolveConnectorRow } from "./connector-config.ts";
import { McpRegistry } from "./registry.ts";
import { setConnectorEnabled, setToolEnabled } from "./session-tools.ts";

let database: TestDatabase;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: Parameters<typeof setConnectorEnabled>[0];
/** Connector ids in the order the registries looked them up. */
const lookups: string[] = [];
let checkouts = 0;

const config = sharedFixtureStdioConfig();
const admin: AdminConnector[] = ["fixture", "fixture_renamed"].map((name) => ({ name, disabled: false, config }));

function createRegistry(): McpRegistry {
  return new McpRegistry({ db: database.db, pool, resolveConnector, toolTimeoutMs: 5_000, maxOutputChars: 10_000 });
}

function resolveConnector(id: string) {
  lookups.push(id);
  return resolveConnectorRow(database.db, id, admin);
}

beforeAll(async () => {
  database = await createTestDatabase();
  database.pool.on("acquire", () => checkouts++);
  pool = new ConnectionPool();
  registry = createRegistry();
  deps = { db: database.db, registry, pool, resolveConnector };
});

afterAll(async () => {
  await pool.closeAll();
  await database.drop();
});

async function adminConnector(name: string): Promise<string> {
  const row = await database.db.connector.create({ data: { source: "admin", name, transport: "stdio" } });
  return row.id;
}

async function chatWith(connectorId: string, name: string) {
  const ids = await createUserWithSession(database.db, name);
  await setConnectorEnabled(deps, ids.userId, { ...ids, connectorId, enabled: true });
  return ids;
}

const lookupsOf = (connectorId: string) => lookups.filter((id) => id === connectorId).length;

describe("a warm rebuild", () => {
  it("looks a connector up once per row content, across chats, and again when the row changes", async () => {
    const connectorId = await adminConnector("fixture");
    const alice = await chatWith(connectorId, "Alice");
    const bob = await chatWith(connectorId, "Bob");
    for (const { sessionId } of [alice, bob, alice]) await registry.rebuild(sessionId, "test");
    expect(lookupsOf(connectorId)).toBe(1);

    await database.db.connector.update({ where: { id: connectorId }, data: { name: "fixture_renamed" } });
    await registry.rebuild(alice.sessionId, "renamed");
    expect(lookupsOf(connectorId)).toBe(2);
    const renamed = await registry.snapshot(alice.sessionId);
    expect(renamed.tools.some((tool) => tool.canonicalName === "fixture_renamed.echo")).toBe(true);
    expect(renamed.tools.some((tool) => tool.canonicalName.startsWith("fixture."))).toBe(false);
    await registry.rebuild(bob.sessionId, "renamed");
    expect(lookupsOf(connectorId)).toBe(2);
    expect((await registry.snapshot(bob.sessionId)).tools.map((tool) => tool.canonicalName)).toContain(
      "fixture_renamed.echo",
    );
  });

  it("looks up again, every time, a connector the admin list no longer offers", async () => {
    const connectorId = await adminConnector("unlisted");
    const { sessionId } = await chatWith(connectorId, "Carol");
    await registry.rebuild(sessionId, "test");
    await registry.rebuild(sessionId, "test");
    expect(lookupsOf(connectorId)).toBeGreaterThanOrEqual(3); // the switch's rebuild and these two
    expect((await registry.snapshot(sessionId)).tools.every((tool) => tool.connectorId !== connectorId)).toBe(true);
  });

  it("of unchanged tools makes no revision and one round trip", async () => {
    const connectorId = await adminConnector("fixture");
    const { sessionId } = await chatWith(connectorId, "Dave");
    const { revision } = await registry.snapshot(sessionId);
    const before = checkouts;
    expect(await registry.rebuild(sessionId, "test")).toBe(revision);
    expect(checkouts - before).toBe(1);
    expect(await database.db.toolSnapshot.count({ where: { sessionId } })).toBe(revision);
  });

  it("commits what another instance's revision makes different, though this one built those tools before", async () => {
    const connectorId = await adminConnector("fixture");
    const { userId, sessionId } = await chatWith(connectorId, "Erin");
    const first = await registry.snapshot(sessionId);
    expect(first.tools.some((tool) => tool.toolName === "echo")).toBe(true);
    // Another instance switches echo off (revision + 1), then the switch goes back on without a rebuild here.
    const other = createRegistry();
    const otherDeps = { ...deps, registry: other };
    const off = await setToolEnabled(otherDeps, userId, { sessionId, connectorId, toolName: "echo", enabled: false });
    expect(off.revision).toBe(first.revision + 1);
    await database.db.sessionConnector.updateMany({ where: { sessionId, connectorId }, data: { disabledTools: [] } });

    const rebuilt = await registry.rebuild(sessionId, "test");
    expect(rebuilt).toBe(first.revision + 2);
    const latest = await registry.snapshot(sessionId);
    expect(latest.revision).toBe(rebuilt);
    expect(latest.tools.map((tool) => tool.canonicalName)).toEqual(first.tools.map((tool) => tool.canonicalName));
    expect(await other.snapshot(sessionId)).toMatchObject({ revision: rebuilt });
  });
});
