// Mid-turn tool changes against real parts, for each provider: Postgres, two admin connectors running
// our MCP fixture over stdio behind the real registry, the session manager, the real AI SDK providers
// and the fake provider, which refuses (400) every request the real API would refuse — tool names and
// schemas, and message / tool-call ordering. (a) A connector switched while a slow turn streams shows
// up in the turn's next request, after its tool round, on revision N+1. (b) Apply now while a tool
// call is running, or after its result was recorded, supersedes the turn and restarts it on the
// latest revision from the same history: the superseded turn's calls and results are cut away, so
// the restarted first request is valid and never shows a call without its result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { startFakeProvider } from "../../e2e/support/fake-provider/server.ts";
import { ConnectionPool } from "../mcp/connections.ts";
import { McpRegistry } from "../mcp/registry.ts";
import { setConnectorEnabled } from "../mcp/session-tools.ts";
import { exposeToolName } from "../providers/tool-names.ts";
import { createTestDatabase, type TestDatabase } from "../testing/database.ts";
import {
  createManager,
  createUserWithSession,
  fakeIdFor,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
  type FakeProvider,
} from "../testing/engine.ts";
import { providerIds, type ProviderId } from "./canonical.ts";
import type { SessionManager } from "./manager.ts";
import { startListening, stopListening } from "./notifier.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
let database: TestDatabase;
let fake: FakeProvider;
let pool: ConnectionPool;
let registry: McpRegistry;
let manager: SessionManager;
let deps: Parameters<typeof setConnectorEnabled>[0];
const connectors = { fixture: "", extra: "" };

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeProvider({});
  await startListening(database.url);
  const { db } = database;
  for (const name of ["fixture", "extra"] as const) {
    connectors[name] = (await db.connector.create({ data: { source: "admin", name, transport: "stdio" } })).id;
  }
  const config = fixtureStdioConfig();
  const resolveConnector = (id: string) => {
    const name = Object.entries(connectors).find(([, connectorId]) => connectorId === id)?.[0];
    return Promise.resolve(name ? { id, name, config } : null);
  };
  const events = { registry: null as McpRegistry | null };
  pool = new ConnectionPool({
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
  });
  registry = new McpRegistry({ db, pool, resolveConnector, toolTimeoutMs: 10_000, maxOutputChars: 10_000 });
  events.registry = registry;
  deps = { db, registry, pool, resolveConnector };
  manager = createManager(db, fake, { tools: registry });
  manager.start();
});

afterAll(async () => {
  await manager.stop();
  await pool.closeAll();
  await stopListening();
  await fake.close();
  await database.drop();
});

/** A chat with the fixture connector on (revision N) and the extra one off. */
async function chatWithFixture() {
  const ids = await createUserWithSession(database.db);
  const { revision } = await setConnectorEnabled(deps, ids.userId, {
    ...ids,
    connectorId: connectors.fixture,
    enabled: true,
  });
  const tools = (await registry.snapshot(ids.sessionId)).tools;
  const slow = tools.find((tool) => tool.canonicalName === "fixture.slow")!.exposedName;
  return { ...ids, revision, slow };
}

const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });

function firstEvent(turnId: string, type: string) {
  return waitFor(
    () => database.db.sessionEvent.findFirst({ where: { turnId, type } }),
    (event) => !!event,
  );
}

function turnRequests(turnId: string) {
  return database.db.turnRequest.findMany({ where: { turnId }, orderBy: { index: "asc" } });
}

/** The function tools a recorded request declares, whatever its wire format. */
function declaredTools(body: unknown): string[] {
  const tools = ((body as { tools?: Record<string, unknown>[] }).tools ?? []).flatMap(
    (tool) => (tool.functionDeclarations as { name: string }[] | undefined) ?? [tool],
  );
  return tools.map((tool) => (tool.function as { name: string } | undefined)?.name ?? (tool.name as string)).sort();
}

/** No request the fake received was one the real API would refuse (the reasons, when there are). */
function expectNoInvalidRequest() {
  const refused = fake.requests().filter((request) => request.status === 400);
  expect(refused.map((request) => `${request.path}: ${request.error}`)).toEqual([]);
  expect(fake.requests().every((request) => request.status !== 400)).toBe(true);
}

describe.each(providerIds)("mid-turn tool changes on %s", (provider) => {
  const fakeId = fakeIdFor(provider);

  it("a connector switched off while the turn streams is gone from its next request, on revision N+1", async () => {
    const { userId, sessionId, revision, slow } = await chatWithFixture();
    fake.clear();
    fake.script(fakeId, {
      steps: [
        { type: "text", text: "Let me wait for it. ".repeat(12), chunkSize: 6 },
        { type: "tool-call", name: slow, args: { ms: 30, steps: 1 } },
      ],
      delayMs: 15,
    });
    fake.script(fakeId, { steps: [{ type: "text", text: "Done waiting." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Wait a little", choice(provider));
    await firstEvent(turnId, "text.delta");
    const off = await setConnectorEnabled(deps, userId, { sessionId, connectorId: connectors.fixture, enabled: false });
    expect(off.revision).toBe(revision + 1);
    expect(fake.requests(fakeId)).toHaveLength(1); // switched while the first response was still streaming

    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    const requests = await turnRequests(turnId);
    expect(requests.map((request) => request.toolsRevision)).toEqual([revision, revision + 1]);
    const [before, after] = requests.map((request) => request.toolNames as string[]);
    expect(before).toContain(slow);
    expect(after).not.toContain(slow);
    expect(after).toContain(TIME_TOOL);
    expect(before!.length).toBeGreaterThan(after!.length);

    const [firstBody, secondBody] = fake.requests(fakeId).map((request) => request.body);
    expect(declaredTools(firstBody)).toEqual([...before!].sort());
    expect(declaredTools(secondBody)).toEqual([...after!].sort()); // what the model was shown, as recorded
    expect(JSON.stringify(secondBody)).toContain(slow); // the history still holds the call and its result
    expect(await database.db.message.count({ where: { turnId, role: "tool" } })).toBe(1);
    expectNoInvalidRequest();
  });

  it("apply now while a tool call runs: superseded, restarted on N+1 without the unanswered call", async () => {
    const { userId, sessionId, revision, slow } = await chatWithFixture();
    fake.clear();
    fake.script(fakeId, { steps: [{ type: "tool-call", name: slow, args: { ms: 4321, steps: 4 } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "Restarted with the extra tools." }] });

    const first = await manager.startTurn(userId, sessionId, "Wait a long time", choice(provider));
    await firstEvent(first.turnId, "tool.call");
    expect(await database.db.message.count({ where: { turnId: first.turnId, role: "tool" } })).toBe(0); // pending
    const on = await setConnectorEnabled(deps, userId, { sessionId, connectorId: connectors.extra, enabled: true });
    expect(on.revision).toBe(revision + 1);
    const restarted = await manager.restart(userId, first.turnId);

    await expectRestartedOn(first.turnId, restarted.turnId, on.revision);
    const bodies = fake.requests(fakeId).map((request) => JSON.stringify(request.body));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toContain("extra_");
    expect(bodies[1]).not.toMatch(/ms\\?":4321\b/); // the superseded turn's call is not in the restarted request
    expectNoInvalidRequest();
  });

  it("apply now after the tool result was recorded, while the follow-up streams: the whole round is cut", async () => {
    const { userId, sessionId, revision, slow } = await chatWithFixture();
    fake.clear();
    fake.script(fakeId, { steps: [{ type: "tool-call", name: slow, args: { ms: 173, steps: 1 } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "stale ".repeat(200), chunkSize: 4 }], delayMs: 20 });
    fake.script(fakeId, { steps: [{ type: "text", text: "Restarted with the extra tools." }] });

    const first = await manager.startTurn(userId, sessionId, "Wait, then answer", choice(provider));
    await waitFor(
      () => database.db.message.count({ where: { turnId: first.turnId, role: "tool" } }),
      (count) => count === 1,
    );
    await waitFor(
      () => Promise.resolve(fake.requests(fakeId).length),
      (count) => count === 2,
    );
    await firstEvent(first.turnId, "text.delta");
    const on = await setConnectorEnabled(deps, userId, { sessionId, connectorId: connectors.extra, enabled: true });
    expect(on.revision).toBe(revision + 1);
    const restarted = await manager.restart(userId, first.turnId);

    await expectRestartedOn(first.turnId, restarted.turnId, on.revision);
    const requests = fake.requests(fakeId);
    expect(requests).toHaveLength(3);
    await waitFor(
      () => Promise.resolve(requests[1]!.aborted),
      (aborted) => aborted,
    ); // the streaming follow-up was cancelled upstream
    const restartedBody = JSON.stringify(requests[2]!.body);
    expect(restartedBody).not.toMatch(/ms\\?":173\b/); // the superseded call and its result are cut
    expect(restartedBody).not.toContain("stale stale");
    expect(restartedBody).toContain("Wait, then answer");
    expectNoInvalidRequest();
  });
});

/** The old turn is superseded, its calls kept for display; the new one ran on `revision` with the extra tools. */
async function expectRestartedOn(oldTurnId: string, newTurnId: string, revision: number) {
  const { db } = database;
  expect((await db.turn.findUniqueOrThrow({ where: { id: oldTurnId } })).status).toBe("superseded");
  const done = await waitForTurnEnd(db, newTurnId);
  expect(done).toMatchObject({ status: "completed", restartOfId: oldTurnId });
  const [request, ...more] = await turnRequests(newTurnId);
  expect(more).toEqual([]);
  expect(request!.toolsRevision).toBe(revision);
  const names = request!.toolNames as string[];
  expect(names.some((name) => name.startsWith("extra_"))).toBe(true);
  expect(names.some((name) => name.startsWith("fixture_"))).toBe(true);
  const kept = await db.message.findMany({ where: { turnId: oldTurnId, role: "assistant" } });
  expect(kept.flatMap((message) => message.parts as { type: string }[]).some((part) => part.type === "tool-call")).toBe(
    true,
  );
}
