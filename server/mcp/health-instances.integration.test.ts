// The health rule across instances, with two processes: this test process is instance A, a child
// process (e2e/support/testbeds/mcp-instance-process.ts) is instance B, both on one Postgres, both with an
// admin connector to our fixture over Streamable HTTP — A through a TCP proxy this test owns, B
// directly. Cutting A's proxy makes A lose the server while B still reaches it: no chat loses the
// connector's tools and no revision is made (A answers calls with "unavailable" in words). Only
// when B is gone too (SIGKILL: its board rows age out) do the tools leave, in one new revision per
// chat; restoring A's proxy brings them back.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server, Socket } from "node:net";
import { createInterface } from "node:readline";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, startFixtureHttp, type ServerProcess } from "../../e2e/support/mcp-fixture/launch.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession, waitFor } from "../../e2e/support/testbeds/engine.ts";
import { runToolCall } from "../core/tool-source.ts";
import { BACKOFF_CAP_MS } from "./backoff.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { HealthBoard, reportHealth } from "./health-board.ts";
import { McpRegistry } from "./registry.ts";
import { type getSessionTools, setConnectorEnabled } from "./session-tools.ts";
import type { ConnectorConfig } from "./transports.ts";

const TTL_MS = 1_500;
let database: TestDatabase;
let fixture: ServerProcess & { url: string };
let proxy: TcpProxy;
let other: ChildProcess | null = null;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: Parameters<typeof getSessionTools>[0];
let connectorId = "";
const events = { registry: null as McpRegistry | null };

/** A TCP proxy to `target` on a port of its own, which the test can cut and restore. */
type TcpProxy = { port: number; cut(): Promise<void>; restore(): Promise<void> };

async function startProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client).add(upstream);
        upstream.connect(targetPort, "127.0.0.1");
        client.pipe(upstream).pipe(client);
        for (const socket of [client, upstream]) {
          socket.on("error", () => undefined);
          socket.on("close", () => sockets.delete(socket));
        }
      });
      server.listen(port, "127.0.0.1", resolve);
    });
  await listen();
  return {
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.destroy(); // close() waits for open connections
      await closed;
    },
    restore: listen,
  };
}

function startOtherInstance(config: ConnectorConfig): Promise<ChildProcess> {
  const args = {
    databaseUrl: database.url,
    instanceId: "instance-b",
    ttlMs: TTL_MS,
    connectors: [{ id: connectorId, name: "remote", config }],
  };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "e2e/support/testbeds/mcp-instance-process.ts", JSON.stringify(args)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`the other instance exited with ${code}`)));
  });
}

const remoteTools = (snapshot: { tools: { connectorId: string }[] }) =>
  snapshot.tools.filter((tool) => tool.connectorId === connectorId).length;

beforeAll(async () => {
  database = await createTestDatabase();
  fixture = await startFixtureHttp();
  proxy = await startProxy(Number(new URL(fixture.url).port));
  const headers = { Authorization: "Bearer shared" }; // one shared connection per instance
  const viaProxy: ConnectorConfig = { kind: "streamable-http", url: `http://127.0.0.1:${proxy.port}/mcp`, headers };
  connectorId = (
    await database.db.connector.create({ data: { source: "admin", name: "remote", transport: viaProxy.kind } })
  ).id;
  const board = new HealthBoard(database.db, "instance-a", TTL_MS);
  pool = new ConnectionPool({
    nameOf: () => "remote",
    onHealthChanged: (key, health) =>
      void reportHealth(board, key, health).finally(() => events.registry?.rebuildForConnector(key, "health")),
  });
  const resolveConnector = (id: string) =>
    Promise.resolve(id === connectorId ? { id, name: "remote", config: viaProxy } : null);
  registry = new McpRegistry({
    db: database.db,
    pool,
    resolveConnector,
    toolTimeoutMs: 5_000,
    maxOutputChars: 10_000,
    listTimeoutMs: 3_000,
    reachableElsewhere: (key) => board.reachableElsewhereFor(key),
  });
  events.registry = registry;
  deps = { db: database.db, registry, pool, resolveConnector };
  other = await startOtherInstance({ kind: "streamable-http", url: fixture.url, headers });
});

afterAll(async () => {
  events.registry = null; // no rebuilds against a dropped database
  other?.kill("SIGKILL");
  await pool.closeAll();
  await proxy.cut();
  await fixture.stop();
  await database.drop();
});

describe("one instance cut off from a connector the other reaches", () => {
  it("keeps the tools in every chat (no revision), and drops them only when no instance reaches it", async () => {
    const chats = await Promise.all(["Xavier", "Yolanda"].map((name) => createUserWithSession(database.db, name)));
    for (const { userId, sessionId } of chats) {
      await setConnectorEnabled(deps, userId, { sessionId, connectorId, enabled: true });
    }
    const before = await Promise.all(chats.map(({ sessionId }) => registry.snapshot(sessionId)));
    expect(before.map(remoteTools)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(before.every((snapshot) => remoteTools(snapshot) > 0)).toBe(true);
    const revisionsBefore = await database.db.toolSnapshot.count();

    await proxy.cut();
    await waitFor(
      () => Promise.resolve(pool.health(connectorId)),
      (health) => health === "unhealthy",
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // the health rebuilds have run by now
    const during = await Promise.all(chats.map(({ sessionId }) => registry.snapshot(sessionId)));
    expect(during.map((snapshot) => snapshot.revision)).toEqual(before.map((snapshot) => snapshot.revision));
    expect(during.map(remoteTools)).toEqual(before.map(remoteTools));
    expect(await database.db.toolSnapshot.count()).toBe(revisionsBefore);
    const [first] = chats;
    const refused = await runToolCall(
      registry,
      first!.sessionId,
      { canonicalName: "remote.echo", args: { text: "hi" }, revision: during[0]!.revision },
      { signal: new AbortController().signal, timeoutMs: 5_000 },
    );
    expect(refused).toMatchObject({ isError: true, output: { error: { code: "unavailable" } } });
    expect(JSON.stringify(refused)).toMatch(/The remote connector is unavailable/);

    other?.kill("SIGKILL"); // B is gone: its word ages out, and nobody reaches the server
    const after = await Promise.all(
      chats.map(({ sessionId }, index) =>
        waitFor(
          () => registry.snapshot(sessionId),
          (snapshot) => snapshot.revision > before[index]!.revision && remoteTools(snapshot) === 0,
          TTL_MS * 8,
        ),
      ),
    );
    expect(after.map((snapshot) => snapshot.revision)).toEqual(before.map((snapshot) => snapshot.revision + 1));

    // A has been failing for as long as the wait above took, so its next retry may be a full rung of
    // the reconnect ladder away (up to BACKOFF_CAP_MS under load), not a fixed few seconds.
    await proxy.restore();
    await Promise.all(
      chats.map(({ sessionId }) =>
        waitFor(
          () => registry.snapshot(sessionId),
          (snapshot) => remoteTools(snapshot) > 0,
          BACKOFF_CAP_MS + 15_000,
        ),
      ),
    );
  }, 120_000);
});
