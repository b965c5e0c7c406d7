// Rebuilds that fail, and rebuilds a connector's health triggers, with real parts: Postgres and our
// MCP fixture server (over stdio, and over Streamable HTTP where it has to die for real). A rebuild
// is made to fail honestly: two fixture connectors, "a" and "a_b", get tools whose exposed names
// collide beyond repair ("a.b_c" and "a_b.c" both become a_b_c, and "a_b" also has a tool literally
// named like the disambiguated form of "a.b_c"), which the registry refuses rather than drop a tool.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import {
  sharedFixtureStdioConfig,
  startFixtureHttp,
  type ServerProcess,
} from "../../e2e/support/mcp-fixture/launch.ts";
import { shortHash } from "../core/tool-names.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession, waitFor } from "../../e2e/support/testbeds/engine.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import { type ResolvedConnector } from "./registry-options.ts";
import type { ConnectorConfig } from "./transports.ts";
import { getSessionTools, setConnectorEnabled, setToolEnabled } from "./session-tools.ts";
import { setConnectorPolicy, setToolPolicy } from "../policy/connector-policy.ts";
import { createPersona, setSessionPersona } from "../policy/personas.ts";

const CLASHING_TOOL = `c_${shortHash("a.b_c")}`;
let database: TestDatabase;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: Parameters<typeof getSessionTools>[0];
let http: ServerProcess & { url: string };
const connectors = new Map<string, ResolvedConnector>();
const events = { registry: null as McpRegistry | null };
const ids: Record<"a" | "ab" | "remote", string> = { a: "", ab: "", remote: "" };

async function addConnector(name: string, config: ConnectorConfig): Promise<string> {
  const row = await database.db.connector.create({ data: { source: "admin", name, transport: config.kind } });
  connectors.set(row.id, { id: row.id, name, config });
  return row.id;
}

/**
 * A fixture tool call on a connector's (shared) connection: add_tool / remove_tool announce list_changed.
 * The first call spawns the stdio fixture, which takes seconds on a loaded machine: a generous bound.
 */
function fixture(connectorId: string, tool: string, args: Record<string, string> = {}) {
  const { config } = connectors.get(connectorId)!;
  return pool.callTool(connectorId, config, tool, args, { signal: AbortSignal.timeout(20_000), timeoutMs: 20_000 });
}

/** Adds or removes a tool and waits until the pool's cached list shows it (list_changed is debounced). */
async function changeTool(connectorId: string, change: "add_tool" | "remove_tool", name: string) {
  await fixture(connectorId, change, { name });
  const { config } = connectors.get(connectorId)!;
  await vi.waitFor(async () => {
    const names = (await pool.listTools(connectorId, config)).map((tool) => tool.name);
    expect(names.includes(name)).toBe(change === "add_tool");
  });
}

const bindingOf = (sessionId: string, connectorId: string) =>
  database.db.sessionConnector.findUnique({ where: { sessionId_connectorId: { sessionId, connectorId } } });
const hasTool = (canonicalName: string) => (snapshot: { tools: { canonicalName: string }[] }) =>
  snapshot.tools.some((tool) => tool.canonicalName === canonicalName);

beforeAll(async () => {
  database = await createTestDatabase();
  http = await startFixtureHttp();
  pool = new ConnectionPool({
    listChangedDebounceMs: 50,
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
    onHealthChanged: (key) => void events.registry?.rebuildForConnector(key, "health"),
  });
  const resolveConnector = (id: string) => Promise.resolve(connectors.get(id) ?? null);
  registry = new McpRegistry({ db: database.db, pool, resolveConnector, toolTimeoutMs: 5_000, maxOutputChars: 10_000 });
  events.registry = registry;
  deps = { db: database.db, registry, pool, resolveConnector };
  ids.a = await addConnector("a", sharedFixtureStdioConfig());
  ids.ab = await addConnector("a_b", sharedFixtureStdioConfig());
  // An Authorization header makes it one shared connection (no per-user OAuth key), which the test can crash.
  const headers = { Authorization: "Bearer shared" };
  ids.remote = await addConnector("remote", { kind: "streamable-http", url: http.url, headers });
  await changeTool(ids.a, "add_tool", "b_c");
  await changeTool(ids.ab, "add_tool", "c");
});

afterAll(async () => {
  events.registry = null; // closing is a health change too: no rebuilds against a dropped database
  await pool.closeAll();
  await http.stop();
  await database.drop();
});

describe("a switch whose rebuild fails", () => {
  it("is undone, so the panel shows it off, and the user is told why", async () => {
    const { userId, sessionId } = await createUserWithSession(database.db, "Switcher");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.a, enabled: true });
    await changeTool(ids.ab, "add_tool", CLASHING_TOOL);
    const before = await registry.snapshot(sessionId);

    const error = await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.ab, enabled: true }).then(
      () => null,
      (reason: Error) => reason,
    );

    expect(error?.message).toMatch(/^The switch was undone: .*a_b_c/);
    expect(await bindingOf(sessionId, ids.ab)).toBeNull(); // created by the switch, so removed again
    const after = await registry.snapshot(sessionId);
    expect(after.tools.map((tool) => tool.canonicalName)).toEqual(before.tools.map((tool) => tool.canonicalName));
    const panel = await getSessionTools(deps, userId, sessionId);
    expect(panel.connectors.find((connector) => connector.id === ids.ab)?.enabled).toBe(false);
    expect(panel.rebuildError).toBeNull();

    // A tool switch rolls back the same way: with both on, switching a_b's clashing tool on fails.
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.a, enabled: false });
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.ab, enabled: true });
    await setToolEnabled(deps, userId, { sessionId, connectorId: ids.ab, toolName: CLASHING_TOOL, enabled: false });
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.a, enabled: true });
    await expect(
      setToolEnabled(deps, userId, { sessionId, connectorId: ids.ab, toolName: CLASHING_TOOL, enabled: true }),
    ).rejects.toThrow(/^The switch was undone/);
    expect((await bindingOf(sessionId, ids.ab))?.disabledTools).toEqual([CLASHING_TOOL]);
    await changeTool(ids.ab, "remove_tool", CLASHING_TOOL);
  });
});

describe("a policy or persona change whose rebuild fails", () => {
  it("is undone like a switch: the tool stays denied, the chat keeps its persona", async () => {
    const { userId, sessionId } = await createUserWithSession(database.db, "Policy");
    const policyDeps = { db: database.db, registry };
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.a, enabled: true });
    await changeTool(ids.ab, "add_tool", CLASHING_TOOL);
    // Denied, the clashing tool is not in the snapshot, so both connectors can be on.
    await setToolPolicy(policyDeps, userId, {
      sessionId,
      connectorId: ids.ab,
      toolName: CLASHING_TOOL,
      policy: "deny",
    });
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.ab, enabled: true });

    await expect(
      setToolPolicy(policyDeps, userId, { sessionId, connectorId: ids.ab, toolName: CLASHING_TOOL, policy: "allow" }),
    ).rejects.toThrow(/^The policy change was undone: .*a_b_c/);
    expect((await bindingOf(sessionId, ids.ab))?.toolPolicies).toEqual({ [CLASHING_TOOL]: "deny" });
    await expect(
      setConnectorPolicy(policyDeps, userId, { sessionId, connectorId: ids.ab, policy: "ask" }),
    ).resolves.toHaveProperty("revision"); // the tool's own deny still hides it

    // A persona that leaves a_b's tools out hides the clash; dropping the persona would expose it.
    await database.db.sessionConnector.update({
      where: { sessionId_connectorId: { sessionId, connectorId: ids.ab } },
      data: { toolPolicies: {} },
    });
    const persona = await createPersona(policyDeps, userId, {
      name: "Only a",
      systemPrompt: "",
      toolAllowlist: ["a.*"],
    });
    await setSessionPersona(policyDeps, userId, { sessionId, personaId: persona.id });
    await expect(setSessionPersona(policyDeps, userId, { sessionId, personaId: null })).rejects.toThrow(
      /^The persona change was undone/,
    );
    const session = await database.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.personaId).toBe(persona.id);
    await changeTool(ids.ab, "remove_tool", CLASHING_TOOL);
  });
});

describe("a background rebuild that fails", () => {
  it("is shown in the Tools panel until a later rebuild succeeds", async () => {
    const { userId, sessionId } = await createUserWithSession(database.db, "Watcher");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.a, enabled: true });
    const { revision } = await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.ab, enabled: true });

    await changeTool(ids.ab, "add_tool", CLASHING_TOOL); // list_changed -> a rebuild that must fail

    const panel = await waitFor(
      () => getSessionTools(deps, userId, sessionId),
      (value) => value.rebuildError !== null,
    );
    expect(panel.revision).toBe(revision); // still the last good revision
    expect(panel.rebuildError).toMatch(
      new RegExp(
        `^This chat's tools could not be updated \\(list_changed\\): .*The model keeps the tools of revision ${revision} `,
      ),
    );

    await changeTool(ids.ab, "remove_tool", CLASHING_TOOL); // list_changed -> a rebuild that succeeds
    const healed = await waitFor(
      () => getSessionTools(deps, userId, sessionId),
      (value) => value.rebuildError === null,
    );
    // The healed tools are the very tools of the last good revision, so no new revision is made.
    expect(healed.revision).toBe(revision);
  });
});

describe("a connector's health", () => {
  it("bumps the revision when the connector becomes unhealthy, and its tools leave the next snapshot", async () => {
    const { userId, sessionId } = await createUserWithSession(database.db, "Health");
    const { revision } = await setConnectorEnabled(deps, userId, { sessionId, connectorId: ids.remote, enabled: true });
    expect(hasTool("remote.echo")(await registry.snapshot(sessionId))).toBe(true);

    await fixture(ids.remote, "crash").catch(() => undefined); // the HTTP server process exits

    const after = await waitFor(
      () => registry.snapshot(sessionId),
      (snapshot) => snapshot.revision > revision && !hasTool("remote.echo")(snapshot),
    );
    expect(after.tools.filter((tool) => tool.connectorId === ids.remote)).toEqual([]);
    const stored = await database.db.toolSnapshot.findMany({ where: { sessionId, revision: { gt: revision } } });
    expect(stored.map((row) => row.reason)).toContain("health");
    expect(pool.health(ids.remote)).toBe("unhealthy");
  });
});
