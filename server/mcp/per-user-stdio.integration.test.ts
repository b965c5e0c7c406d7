// stdio servers per user, with the real registry on Postgres and the reference server-memory (a
// server that keeps state, in a file): two users with the same admin connector get a process each
// and a memory each (`${PATCHBAY_USER_DIR}`, user-dir.ts), neither sees the other's entities, and an
// idle per-user process is stopped and comes back, memory intact, on next use. A `"shared": true`
// server runs one process for both.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BIN, isAlive } from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession, waitFor } from "../../e2e/support/testbeds/engine.ts";
import { runToolCall } from "../core/tool-source.ts";
import { connectionKey } from "./connection-keys.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import type { ResolvedConnector } from "./registry-options.ts";
import { type getSessionTools, setConnectorEnabled } from "./session-tools.ts";
import type { ConnectorConfig } from "./transports.ts";

const IDLE_MS = 1_500;
let database: TestDatabase;
let dataDir: string;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: Parameters<typeof getSessionTools>[0];
const connectors = new Map<string, ResolvedConnector>();

const memory: ConnectorConfig = {
  kind: "stdio",
  command: BIN("mcp-server-memory"),
  args: [],
  env: { MEMORY_FILE_PATH: "${PATCHBAY_USER_DIR}/memory.jsonl" },
};

async function addConnector(name: string, config: ConnectorConfig): Promise<string> {
  const row = await database.db.connector.create({ data: { source: "admin", name, transport: config.kind } });
  connectors.set(row.id, { id: row.id, name, config });
  return row.id;
}

async function userWithMemory(name: string, connectorId: string) {
  const user = await createUserWithSession(database.db, name);
  await setConnectorEnabled(deps, user.userId, { sessionId: user.sessionId, connectorId, enabled: true });
  const revision = (await registry.snapshot(user.sessionId)).revision;
  const call = (tool: string, args: Record<string, never> | Record<string, unknown>) =>
    runToolCall(
      registry,
      user.sessionId,
      { canonicalName: `memory.${tool}`, args: args as never, revision },
      { signal: new AbortController().signal, timeoutMs: 15_000 },
    );
  return { ...user, call };
}

const entity = (name: string) => ({ name, entityType: "person", observations: [`${name} was here`] });

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "patchbay-users-"));
  pool = new ConnectionPool({ idleTimeoutMs: IDLE_MS, userDataDir: dataDir });
  const resolveConnector = (id: string) => Promise.resolve(connectors.get(id) ?? null);
  registry = new McpRegistry({
    db: database.db,
    pool,
    resolveConnector,
    toolTimeoutMs: 15_000,
    maxOutputChars: 50_000,
  });
  deps = { db: database.db, registry, pool, resolveConnector };
});

afterAll(async () => {
  await pool.closeAll();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("server-memory for two users", () => {
  it("gives each user a process and a memory of their own", async () => {
    const connectorId = await addConnector("memory", memory);
    const alice = await userWithMemory("Alice", connectorId);
    const bob = await userWithMemory("Bob", connectorId);

    expect(await alice.call("create_entities", { entities: [entity("Alice")] })).toMatchObject({ isError: false });
    expect(await bob.call("create_entities", { entities: [entity("Bob")] })).toMatchObject({ isError: false });
    const aliceGraph = JSON.stringify((await alice.call("read_graph", {})).output);
    const bobGraph = JSON.stringify((await bob.call("read_graph", {})).output);

    expect(aliceGraph).toContain("Alice was here");
    expect(aliceGraph).not.toContain("Bob");
    expect(bobGraph).toContain("Bob was here");
    expect(bobGraph).not.toContain("Alice");
    const resolved = connectors.get(connectorId)!;
    const [aliceKey, bobKey] = [connectionKey(resolved, alice.userId), connectionKey(resolved, bob.userId)];
    expect(aliceKey).not.toBe(bobKey);
    expect(pool.childPids()).toHaveLength(2);
  });

  it("stops an idle user's process quietly and starts it again, memory intact, on next use", async () => {
    // Alice's and Bob's processes (the test above) go idle first: the idle stop at work.
    await waitFor(
      () => Promise.resolve(pool.childPids()),
      (pids) => pids.length === 0,
      IDLE_MS * 6,
    );
    const connectorId = await addConnector("memory_idle", memory);
    connectors.set(connectorId, { id: connectorId, name: "memory", config: memory });
    const carol = await userWithMemory("Carol", connectorId);
    await carol.call("create_entities", { entities: [entity("Carol")] });
    const key = connectionKey(connectors.get(connectorId)!, carol.userId);
    const [carolPid] = pool.childPids();
    expect(carolPid).toBeDefined();
    expect(pool.health(key)).toBe("ready");
    const revision = (await registry.snapshot(carol.sessionId)).revision;

    await waitFor(
      () => Promise.resolve(isAlive(carolPid!)),
      (alive) => !alive,
      IDLE_MS * 6,
    );
    expect(pool.health(key)).toBe("idle");
    expect((await registry.snapshot(carol.sessionId)).revision).toBe(revision); // no revision for an idle stop

    const graph = JSON.stringify((await carol.call("read_graph", {})).output);
    expect(graph).toContain("Carol was here");
    expect(pool.health(key)).toBe("ready");
  });
});

describe('a "shared": true stdio server', () => {
  it("runs one process for every user", async () => {
    const shared: ConnectorConfig = {
      kind: "stdio",
      command: BIN("mcp-server-memory"),
      args: [],
      env: {},
      shared: true,
    };
    const connectorId = await addConnector("shared_memory", shared);
    const dave = await createUserWithSession(database.db, "Dave");
    const erin = await createUserWithSession(database.db, "Erin");
    const resolved = connectors.get(connectorId)!;
    const [daveKey, erinKey] = [connectionKey(resolved, dave.userId), connectionKey(resolved, erin.userId)];
    expect(daveKey).toBe(connectorId);
    expect(erinKey).toBe(connectorId);
    const before = pool.childPids().length;
    await pool.listTools(daveKey, shared);
    await pool.listTools(erinKey, shared);
    expect(pool.childPids()).toHaveLength(before + 1);
    await pool.close(daveKey);
  });
});
