// Real MCP servers going away and coming back, with the real registry on Postgres: the reference
// server-everything over Streamable HTTP and legacy SSE (killed with SIGKILL, restarted on the same
// port), and our fixture over Streamable HTTP forgetting its sessions as a restarted server does.
// What a user and a model must see: a call pending on a dead server fails within 1 s with "went away"
// under the connector's name (never an id); the connector's tools leave the next revision; they come
// back by themselves once the server is up again; and the first call after a restart succeeds.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

import {
  BIN,
  freePort,
  startFixtureHttp,
  startServerProcess,
  type ServerProcess,
} from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession, waitFor } from "../../e2e/support/testbeds/engine.ts";
import { runToolCall, type ToolProgress } from "../core/tool-source.ts";
import { ConnectionPool } from "./connection-pool.ts";
import type { ConnectionHealth } from "./connection-types.ts";
import { McpRegistry } from "./registry.ts";
import type { ResolvedConnector } from "./registry-options.ts";
import { getSessionTools, setConnectorEnabled } from "./session-tools.ts";
import type { ConnectorConfig } from "./transports.ts";

let database: TestDatabase;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: Parameters<typeof getSessionTools>[0];
const connectors = new Map<string, ResolvedConnector>();
const events = { registry: null as McpRegistry | null };
const healthLog: { key: string; health: ConnectionHealth }[] = [];

type Everything = { port: number; server: ServerProcess };

function startEverything(mode: "streamableHttp" | "sse", port: number): Promise<ServerProcess> {
  return startServerProcess({
    command: BIN("mcp-server-everything"),
    args: [mode],
    env: { PORT: String(port) },
    ready: mode === "sse" ? /running on port \d+/ : /listening on port \d+/,
  });
}

async function everything(mode: "streamableHttp" | "sse"): Promise<Everything> {
  const port = await freePort();
  const started = { port, server: await startEverything(mode, port) };
  onTestFinished(() => started.server.stop());
  return started;
}

/** SIGKILL: the server gets no chance to close its streams politely, as in a crash. */
async function kill(server: ServerProcess): Promise<void> {
  process.kill(server.pid, "SIGKILL");
  await waitFor(
    () => Promise.resolve(isRunning(server.pid)),
    (running) => !running,
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function addConnector(name: string, config: ConnectorConfig): Promise<string> {
  const row = await database.db.connector.create({ data: { source: "admin", name, transport: config.kind } });
  connectors.set(row.id, { id: row.id, name, config });
  return row.id;
}

const toolsOf = (snapshot: { tools: { connectorId: string; toolName: string }[] }, connectorId: string) =>
  snapshot.tools.filter((tool) => tool.connectorId === connectorId);

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new ConnectionPool({
    nameOf: (key) => connectors.get(key)?.name,
    onToolsChanged: (key) => void events.registry?.rebuildForConnector(key, "list_changed"),
    onHealthChanged: (key, health) => {
      healthLog.push({ key, health });
      void events.registry?.rebuildForConnector(key, "health");
    },
  });
  const resolveConnector = (id: string) => Promise.resolve(connectors.get(id) ?? null);
  registry = new McpRegistry({
    db: database.db,
    pool,
    resolveConnector,
    toolTimeoutMs: 30_000,
    maxOutputChars: 10_000,
  });
  events.registry = registry;
  deps = { db: database.db, registry, pool, resolveConnector };
});

afterAll(async () => {
  events.registry = null;
  await pool.closeAll();
  await database.drop();
});

describe("a Streamable HTTP server killed mid-call", () => {
  it("fails the call within 1 s as gone, by name; its tools leave the next revision and return after a restart", async () => {
    const { port, server } = await everything("streamableHttp");
    // An Authorization header: one shared connection (connection-keys.ts), so the pool key is the id.
    const config: ConnectorConfig = {
      kind: "streamable-http",
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { Authorization: "Bearer shared" },
    };
    const connectorId = await addConnector("Everything", config);
    const { userId, sessionId } = await createUserWithSession(database.db, "Crash watcher");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: true });
    const before = await registry.snapshot(sessionId);
    expect(toolsOf(before, connectorId).map((tool) => tool.toolName)).toContain("trigger-long-running-operation");

    let killedAt = 0;
    let restarted: ServerProcess | null = null;
    onTestFinished(() => restarted?.stop());
    const progress: ToolProgress[] = [];
    const outcome = runToolCall(
      registry,
      sessionId,
      {
        canonicalName: "Everything.trigger-long-running-operation",
        args: { duration: 20, steps: 20 },
        revision: before.revision,
        onProgress: (update) => progress.push(update),
      },
      { signal: new AbortController().signal, timeoutMs: 30_000 },
    );
    await waitFor(
      () => Promise.resolve(progress.length),
      (count) => count >= 1,
    );
    killedAt = Date.now();
    await kill(server);
    const result = await outcome;
    const elapsed = Date.now() - killedAt;

    expect(elapsed).toBeLessThan(1_000);
    expect(result).toEqual({
      isError: true,
      output: {
        error: {
          code: "unavailable",
          message:
            "The Everything connector's server went away during the call; its tools are unavailable until it is back.",
        },
      },
    });
    expect(JSON.stringify(result)).not.toContain(connectorId);

    const without = await waitFor(
      () => registry.snapshot(sessionId),
      (snapshot) => snapshot.revision > before.revision && toolsOf(snapshot, connectorId).length === 0,
    );
    const panel = await getSessionTools(deps, userId, sessionId);
    const shown = panel.connectors.find((connector) => connector.id === connectorId);
    expect(shown?.health).toBe("unhealthy");
    expect(shown?.lastError).toMatch(/went away|unreachable|Could not connect/);

    restarted = await startEverything("streamableHttp", port);
    const back = await waitFor(
      () => registry.snapshot(sessionId),
      (snapshot) => snapshot.revision > without.revision && toolsOf(snapshot, connectorId).length > 0,
      20_000,
    );
    expect(toolsOf(back, connectorId).map((tool) => tool.toolName)).toContain("echo");
    expect(pool.health(connectorId)).toBe("ready");
  });
});

describe("the first call after a restart", () => {
  for (const mode of ["streamableHttp", "sse"] as const) {
    it(`succeeds over ${mode === "sse" ? "legacy SSE" : "Streamable HTTP"}`, async () => {
      const { port, server } = await everything(mode);
      const config: ConnectorConfig =
        mode === "sse"
          ? { kind: "sse", url: `http://127.0.0.1:${port}/sse`, headers: {} }
          : { kind: "streamable-http", url: `http://127.0.0.1:${port}/mcp`, headers: {} };
      const key = `restart-${mode}`;
      const echo = (message: string) =>
        pool.callTool(key, config, "echo", { message }, { signal: AbortSignal.timeout(10_000), timeoutMs: 10_000 });
      expect(JSON.stringify((await echo("before")).content)).toContain("before");

      await kill(server);
      const restarted = await startEverything(mode, port);
      onTestFinished(() => restarted.stop());

      const after = await echo("after the restart");
      expect(after.isError).toBe(false);
      expect(JSON.stringify(after.content)).toContain("after the restart");
      await pool.close(key);
    });
  }
});

describe("a session the server forgot (404)", () => {
  it("is replaced and the request sent once more, with no change of health and no new revision", async () => {
    const fixture = await startFixtureHttp();
    onTestFinished(() => fixture.stop());
    const config: ConnectorConfig = {
      kind: "streamable-http",
      url: fixture.url,
      headers: { Authorization: "Bearer x" },
    };
    const connectorId = await addConnector("Forgetful", config);
    const { userId, sessionId } = await createUserWithSession(database.db, "Forgotten");
    await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: true });
    const before = await registry.snapshot(sessionId);
    const healthBefore = healthLog.filter((entry) => entry.key === connectorId).length;
    const forget = () =>
      fetch(new URL("/forget-sessions", fixture.url), { method: "POST" }).then(
        (response) => response.json() as Promise<{ opened: number }>,
      );
    const { opened } = await forget();

    const result = await runToolCall(
      registry,
      sessionId,
      { canonicalName: "Forgetful.echo", args: { text: "still here" }, revision: before.revision },
      { signal: new AbortController().signal, timeoutMs: 10_000 },
    );

    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.output)).toContain("still here");
    expect((await forget()).opened).toBe(opened + 1); // one new session, made by the resent request
    expect(healthLog.filter((entry) => entry.key === connectorId)).toHaveLength(healthBefore);
    expect(pool.health(connectorId)).toBe("ready");
    expect((await registry.snapshot(sessionId)).revision).toBe(before.revision);
  });
});
