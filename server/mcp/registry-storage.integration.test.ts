// How registry revisions are stored, on the real Postgres with our MCP fixture server over stdio:
// tool lists and per-connector selections once per content hash, a revision row of hashes only,
// revisions readable by an instance that never built them (and from rows written before manifests),
// and concurrent rebuilds from two instances getting distinct consecutive revisions.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sharedFixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession } from "../../e2e/support/testbeds/engine.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import { type RegistryTool } from "./registry-tool.ts";
import { commitRevision } from "./revision-store.ts";
import { setConnectorEnabled, setToolEnabled } from "./session-tools.ts";

let database: TestDatabase;
let pool: ConnectionPool;
let registry: McpRegistry;
let connectorId: string;
let deps: Parameters<typeof setConnectorEnabled>[0];

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const toolNamed = (tools: RegistryTool[], toolName: string) => tools.find((tool) => tool.toolName === toolName);

/** Another app instance: its own registry and (never connected) pool on the same database. */
function otherInstance(): McpRegistry {
  const resolveConnector = () => Promise.reject(new Error("reading a revision must not resolve connectors"));
  return new McpRegistry({
    db: database.db,
    pool: new ConnectionPool(),
    resolveConnector,
    toolTimeoutMs: 5_000,
    maxOutputChars: 10_000,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const connector = await database.db.connector.create({
    data: { source: "admin", name: "fixture", transport: "stdio" },
  });
  connectorId = connector.id;
  const config = sharedFixtureStdioConfig(); // the instances under test share it; per-user keys are not the point here
  const resolveConnector = (id: string) => Promise.resolve(id === connectorId ? { id, name: "fixture", config } : null);
  pool = new ConnectionPool();
  registry = new McpRegistry({ db: database.db, pool, resolveConnector, toolTimeoutMs: 5_000, maxOutputChars: 10_000 });
  deps = { db: database.db, registry, pool, resolveConnector };
});

afterAll(async () => {
  await pool.closeAll();
  await database.drop();
});

async function sessionWithFixture(name: string) {
  const ids = await createUserWithSession(database.db, name);
  const { revision } = await setConnectorEnabled(deps, ids.userId, { ...ids, connectorId, enabled: true });
  return { ...ids, revision };
}

const counts = async () => ({
  lists: await database.db.toolList.count(),
  selections: await database.db.toolSelection.count(),
});

describe("content-addressed revisions", () => {
  it("stores each tool list and selection once, and a revision as a manifest of their hashes", async () => {
    const alice = await sessionWithFixture("Alice");
    const row = await database.db.toolSnapshot.findUniqueOrThrow({
      where: { sessionId_revision: { sessionId: alice.sessionId, revision: alice.revision } },
    });
    expect(row.tools).toBeNull();
    const manifest = row.manifest as { v: number; selections: string[] };
    expect(manifest.v).toBe(2);
    expect(manifest.selections).toHaveLength(2); // the built-ins, the fixture
    expect(JSON.stringify(manifest).length).toBeLessThan(400);
    const stored = await counts();
    expect(stored.lists).toBe(2);

    // Every row is the exact text its hash was taken of.
    const lists = await database.db.$queryRaw<{ hash: string; text: string }[]>`
      SELECT "hash", "tools"::text AS text FROM "ToolList"`;
    for (const list of lists) expect(sha256(list.text)).toBe(list.hash);
    const selections = await database.db.$queryRaw<{ hash: string; text: string }[]>`
      SELECT "hash", "selection"::text AS text FROM "ToolSelection"`;
    for (const selection of selections) expect(sha256(selection.text)).toBe(selection.hash);

    // A switch stores one new selection (the fixture's), nothing else.
    const input = { sessionId: alice.sessionId, connectorId, toolName: "echo" };
    await setToolEnabled(deps, alice.userId, { ...input, enabled: false });
    expect(await counts()).toEqual({ lists: stored.lists, selections: stored.selections + 1 });
    // Switching back, and another chat showing the same tools, reuse what is stored.
    await setToolEnabled(deps, alice.userId, { ...input, enabled: true });
    const bob = await sessionWithFixture("Bob");
    expect(await counts()).toEqual({ lists: stored.lists, selections: stored.selections + 1 });
    const bobRow = await database.db.toolSnapshot.findUniqueOrThrow({
      where: { sessionId_revision: { sessionId: bob.sessionId, revision: bob.revision } },
    });
    expect(bobRow.manifest).toEqual(manifest);
  });

  it("lets another instance read every revision, tool for tool as the building instance has it", async () => {
    const { userId, sessionId, revision } = await sessionWithFixture("Carol");
    await setToolEnabled(deps, userId, { sessionId, connectorId, toolName: "echo", enabled: false });
    const built = [await registry.snapshotAt(sessionId, revision), await registry.snapshot(sessionId)];
    const other = otherInstance();
    expect(await other.snapshotAt(sessionId, revision)).toEqual(built[0]);
    const latest = await other.snapshot(sessionId);
    expect(latest).toEqual(built[1]);
    expect(latest.revision).toBe(revision + 1);
    expect(toolNamed(latest.tools, "echo")).toBeUndefined();
    expect(toolNamed(built[0]!.tools, "echo")).toMatchObject({ connectorId, canonicalName: "fixture.echo" });
    // The reverse map: each exposed name resolves to exactly one connector + tool.
    const exposed = latest.tools.map((tool) => tool.exposedName);
    expect(new Set(exposed).size).toBe(exposed.length);
  });

  it("reads a revision stored before manifests, with its whole tool array", async () => {
    const { sessionId, revision } = await sessionWithFixture("Dave");
    const legacyTools = (await registry.snapshot(sessionId)).tools.slice(0, 3);
    await database.db.$executeRaw`
      INSERT INTO "ToolSnapshot" ("sessionId", "revision", "tools", "reason")
      VALUES (${sessionId}, ${revision + 1}, ${JSON.stringify(legacyTools)}::jsonb, 'before manifests')`;
    await database.db.chatSession.update({ where: { id: sessionId }, data: { toolsRevision: revision + 1 } });
    const read = await otherInstance().snapshot(sessionId);
    expect(read).toEqual({ revision: revision + 1, tools: legacyTools });
    // The next revision after it is a manifest again.
    expect(await registry.rebuild(sessionId, "test")).toBe(revision + 2);
    expect((await otherInstance().snapshot(sessionId)).tools.length).toBeGreaterThan(3);
  });

  it("makes no revision for rebuilds of unchanged tools on two instances, and one for a change however many race", async () => {
    const { sessionId, revision } = await sessionWithFixture("Erin");
    const resolveConnector = deps.resolveConnector;
    const second = new McpRegistry({
      db: database.db,
      pool,
      resolveConnector,
      toolTimeoutMs: 5_000,
      maxOutputChars: 10_000,
    });
    const race = () =>
      Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 ? registry : second).rebuild(sessionId, "race")));
    expect(await race()).toEqual(Array.from({ length: 6 }, () => revision));
    const rows = () => database.db.toolSnapshot.findMany({ where: { sessionId }, orderBy: { revision: "asc" } });
    expect((await rows()).map((row) => row.revision)).toEqual([revision]);

    // A binding change, then rebuilds racing on both instances: one new revision, and it shows it.
    await database.db.sessionConnector.update({
      where: { sessionId_connectorId: { sessionId, connectorId } },
      data: { disabledTools: ["echo"] },
    });
    expect(new Set(await race())).toEqual(new Set([revision + 1]));
    const latest = await otherInstance().snapshot(sessionId);
    expect(latest.revision).toBe(revision + 1);
    expect(toolNamed(latest.tools, "echo")).toBeUndefined();
    expect((await rows()).map((row) => row.revision)).toEqual([revision, revision + 1]);
  });

  it("commits a revision only if none was committed since its state was read, and only for other tools", async () => {
    const { sessionId, revision } = await sessionWithFixture("Frank");
    const write = { sessionId, pendingLists: "[]", pendingSelections: "[]", reason: "test" };
    const manifest = (
      await database.db.toolSnapshot.findUniqueOrThrow({
        where: { sessionId_revision: { sessionId, revision } },
      })
    ).manifest as { v: 2; selections: string[] };
    const changed = { ...manifest, selections: manifest.selections.slice(1) };
    expect(await commitRevision(database.db, { ...write, readAt: revision - 1, manifest: changed })).toEqual({
      kind: "lost",
    });
    expect(await database.db.toolSnapshot.count({ where: { sessionId } })).toBe(1);
    expect(await commitRevision(database.db, { ...write, readAt: revision, manifest })).toEqual({
      kind: "unchanged",
      revision,
    });
    expect(await database.db.toolSnapshot.count({ where: { sessionId } })).toBe(1);
    expect(await commitRevision(database.db, { ...write, readAt: revision, manifest: changed })).toEqual({
      kind: "created",
      revision: revision + 1,
    });
    const session = await database.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.toolsRevision).toBe(revision + 1);
  });
});
