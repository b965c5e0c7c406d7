// The live registry with real parts: Postgres, our MCP fixture server over stdio (hostile names and
// schemas, list_changed on demand, a slow tool), the fake provider in each wire format, and the
// session manager. Switches bump the revision; a running turn sees the new tool set on its next
// request; apply now restarts the streaming turn on the new revision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sharedFixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { startFakeProvider } from "../../e2e/support/fake-provider/server.ts";
import type { ProviderId } from "../core/canonical.ts";
import type { SessionManager } from "../session/manager.ts";
import { startListening, stopListening } from "../db/notifier.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import {
  createManager,
  createUserWithSession,
  fakeIdFor,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
  type FakeProvider,
} from "../../e2e/support/testbeds/engine.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import { type RegistryTool } from "./registry-tool.ts";
import { setConnectorEnabled, setToolEnabled } from "./session-tools.ts";

const EXPOSED_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$/;
let database: TestDatabase;
let fake: FakeProvider;
let pool: ConnectionPool;
let registry: McpRegistry;
let manager: SessionManager;
let connectorId: string;
let deps: Parameters<typeof setConnectorEnabled>[0];

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeProvider({});
  await startListening(database.url);
  const connector = await database.db.connector.create({
    data: { source: "admin", name: "fixture", transport: "stdio" },
  });
  connectorId = connector.id;
  const config = sharedFixtureStdioConfig();
  const resolveConnector = (id: string) => Promise.resolve(id === connectorId ? { id, name: "fixture", config } : null);
  const events = { registry: null as McpRegistry | null };
  pool = new ConnectionPool({
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
  });
  registry = new McpRegistry({ db: database.db, pool, resolveConnector, toolTimeoutMs: 5_000, maxOutputChars: 10_000 });
  events.registry = registry;
  deps = { db: database.db, registry, pool, resolveConnector };
  manager = createManager(database.db, fake, { tools: registry });
  manager.start();
});

afterAll(async () => {
  await manager.stop();
  await pool.closeAll();
  await stopListening();
  await fake.close();
  await database.drop();
});

async function sessionWithFixture(name = "User") {
  const ids = await createUserWithSession(database.db, name);
  await database.db.connector.update({ where: { id: connectorId }, data: {} });
  // Admin connectors are visible to every user.
  const { revision } = await setConnectorEnabled(deps, ids.userId, { ...ids, connectorId, enabled: true });
  return { ...ids, revision };
}

const toolNamed = (tools: RegistryTool[], toolName: string) => tools.find((tool) => tool.toolName === toolName);

describe("the revisioned registry", () => {
  it("bumps the revision on every switch and keeps each revision's snapshot immutable", async () => {
    const { userId, sessionId, revision } = await sessionWithFixture();
    const first = await registry.snapshot(sessionId);
    expect(first.revision).toBe(revision);
    expect(toolNamed(first.tools, "echo")).toMatchObject({ canonicalName: "fixture.echo", connectorId });
    for (const tool of first.tools) expect(tool.exposedName).toMatch(EXPOSED_NAME);
    const hostile = toolNamed(first.tools, "files/read.v2")!;
    expect(hostile.canonicalName).toBe("fixture.files/read.v2");
    expect(new Set(first.tools.map((tool) => tool.exposedName)).size).toBe(first.tools.length);

    const off = await setToolEnabled(deps, userId, { sessionId, connectorId, toolName: "echo", enabled: false });
    expect(off.revision).toBe(revision + 1);
    expect(toolNamed((await registry.snapshot(sessionId)).tools, "echo")).toBeUndefined();
    const other = new McpRegistry({ ...deps, toolTimeoutMs: 5_000, maxOutputChars: 10_000 }); // another instance
    expect(toolNamed((await other.snapshotAt(sessionId, revision)).tools, "echo")).toBeDefined(); // unchanged
  });

  it("builds a new chat's first revision once, however many first reads (and instances) race for it", async () => {
    const { sessionId } = await createUserWithSession(database.db, "Fresh");
    const otherInstance = new McpRegistry({
      db: database.db,
      pool,
      resolveConnector: () => Promise.resolve(null),
      toolTimeoutMs: 5_000,
      maxOutputChars: 10_000,
    });
    const reads = [registry, registry, otherInstance, otherInstance].map((instance) => instance.snapshot(sessionId));
    const snapshots = await Promise.all(reads);

    expect(snapshots.map((snapshot) => snapshot.revision)).toEqual([1, 1, 1, 1]);
    const session = await database.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.toolsRevision).toBe(1);
  });

  it("rebuilds when a connector announces tools/list_changed", async () => {
    const { sessionId, revision } = await sessionWithFixture();
    const config = sharedFixtureStdioConfig();
    await pool.callTool(
      connectorId,
      config,
      "add_tool",
      { name: "fresh_tool" },
      { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 },
    );
    const snapshot = await waitFor(
      () => registry.snapshot(sessionId),
      (value) => value.revision > revision && !!toolNamed(value.tools, "fresh_tool"),
    );
    expect(toolNamed(snapshot.tools, "fresh_tool")!.canonicalName).toBe("fixture.fresh_tool");
    await pool.callTool(
      connectorId,
      config,
      "remove_tool",
      { name: "fresh_tool" },
      { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 },
    );
  });
});

describe("changes during a turn", () => {
  it("applies a switch from the next request of the running turn and records both revisions", async () => {
    const { userId, sessionId, revision } = await sessionWithFixture();
    const slow = toolNamed((await registry.snapshot(sessionId)).tools, "slow")!;
    fake.clear();
    fake.script("anthropic", { steps: [{ type: "tool-call", name: slow.exposedName, args: { ms: 1_200, steps: 2 } }] });
    fake.script("anthropic", { steps: [{ type: "text", text: "Done waiting." }] });
    const { turnId } = await manager.startTurn(userId, sessionId, "Wait a bit", {
      provider: "anthropic",
      model: TEST_MODELS.anthropic,
    });
    await waitFor(
      () => database.db.sessionEvent.findFirst({ where: { turnId, type: "tool.call" } }),
      (event) => !!event,
    );
    await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: false }); // while the tool runs

    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    const requests = await database.db.turnRequest.findMany({ where: { turnId }, orderBy: { index: "asc" } });
    expect(requests[0]!.toolsRevision).toBeGreaterThanOrEqual(revision); // list_changed from other tests may land
    expect(requests[1]!.toolsRevision).toBeGreaterThan(requests[0]!.toolsRevision);
    expect(requests[0]!.toolNames).toContain(slow.exposedName);
    expect(requests[1]!.toolNames).not.toContain(slow.exposedName);
    expect(requests[1]!.toolNames).toContain("builtin_current_time");
    const progress = await database.db.sessionEvent.findMany({ where: { turnId, type: "tool.progress" } });
    expect(progress.length).toBeGreaterThan(0); // the slow tool's progress reached the event log
    expect(progress[0]!.data).toMatchObject({ progress: expect.any(Number) as number });
    const tool = await database.db.message.findFirstOrThrow({ where: { turnId, role: "tool" } });
    expect(tool.parts).toMatchObject([{ isError: false }]); // the call already issued still completed
    const declared = (fake.requests("anthropic")[1]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(declared).not.toContain(slow.exposedName); // the history keeps the call, the declarations drop it
  });

  it.each<ProviderId>(["anthropic", "openai", "google"])(
    "apply now supersedes the streaming turn and restarts it on the new revision (%s)",
    async (provider) => {
      const { userId, sessionId, revision } = await sessionWithFixture();
      await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: false });
      fake.clear();
      const id = fakeIdFor(provider);
      fake.script(id, { steps: [{ type: "text", text: "old ".repeat(300), chunkSize: 4 }], delayMs: 20 });
      fake.script(id, { steps: [{ type: "text", text: "Restarted with tools." }] });
      const first = await manager.startTurn(userId, sessionId, "Hello", { provider, model: TEST_MODELS[provider] });
      await waitFor(
        () => database.db.sessionEvent.findFirst({ where: { turnId: first.turnId, type: "text.delta" } }),
        (event) => !!event,
      );

      const on = await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: true });
      expect(on.revision).toBeGreaterThanOrEqual(revision + 2);
      const restarted = await manager.restart(userId, first.turnId);
      expect((await database.db.turn.findUniqueOrThrow({ where: { id: first.turnId } })).status).toBe("superseded");
      expect((await waitForTurnEnd(database.db, restarted.turnId)).status).toBe("completed");

      const [request] = await database.db.turnRequest.findMany({ where: { turnId: restarted.turnId } });
      expect(request!.toolsRevision).toBe(on.revision);
      const body = fake.requests(id).at(-1)!.body;
      const serialized = JSON.stringify(body);
      expect(serialized).not.toContain("old old");
      const names = request!.toolNames as string[];
      expect(names.length).toBeGreaterThan(5);
      for (const name of names) {
        expect(name).toMatch(EXPOSED_NAME);
        expect(serialized).toContain(name);
      }
      if (provider === "google") expect(serialized).not.toMatch(/"\$(ref|defs|schema)":/); // OpenAPI subset
    },
  );
});
