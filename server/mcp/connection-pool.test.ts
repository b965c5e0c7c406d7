// The connection pool against our own MCP fixture server (e2e/support/mcp-fixture) as a real child
// process: paged and hostile tool lists, list_changed with debounce, progress, cancellation and
// timeouts that reach the server, a crash mid-call and the reconnect after it, config changes, and
// what a stdio child may see of our environment. The reference servers are in
// connections.reference-servers.test.ts.
import { getEventListeners } from "node:events";

import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";

import { fixtureStdioConfig, isAlive, startFixtureHttp } from "../../e2e/support/mcp-fixture/launch.ts";
import { LONG_TOOL_NAME, staticTools } from "../../e2e/support/mcp-fixture/tools.ts";
import { type JsonValue } from "../core/canonical.ts";
import { ToolError } from "../core/tool-source.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { type ConnectionHealth, type ToolProgress } from "./connection-types.ts";
import { type ConnectorConfig } from "./transports.ts";

const KEY = "fixture";
const config = fixtureStdioConfig();
const noSignal = () => new AbortController().signal;

/** A pool that records its callbacks and is closed when the test ends. */
function trackedPool(options: { listChangedDebounceMs?: number } = {}) {
  const toolsChanged: string[] = [];
  const health: ConnectionHealth[] = [];
  const pool = new ConnectionPool({
    ...options,
    onToolsChanged: (key) => toolsChanged.push(key),
    onHealthChanged: (_key, next) => health.push(next),
  });
  onTestFinished(() => pool.closeAll());
  return { pool, toolsChanged, health };
}

function caller(pool: ConnectionPool, target: ConnectorConfig = config, key = KEY) {
  return (name: string, args: Record<string, JsonValue> = {}, timeoutMs = 5_000) =>
    pool.callTool(key, target, name, args, { signal: noSignal(), timeoutMs });
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("one fixture connection over stdio", () => {
  let shared: ConnectionPool;
  let call: ReturnType<typeof caller>;
  const cancelledCount = async () => ((await call("stats")).structuredContent as { cancelled: number }).cancelled;
  beforeAll(() => {
    shared = new ConnectionPool();
    call = caller(shared);
  });
  afterAll(() => shared.closeAll());

  it("connects lazily and lists every page: hostile names and schemas intact, malformed entries skipped", async () => {
    expect(shared.health(KEY)).toBe("idle");

    const tools = await shared.listTools(KEY, config);

    expect(tools.map((tool) => tool.name)).toEqual(staticTools.map((tool) => tool.name));
    expect(tools.length).toBeGreaterThan(12); // several pages of 4
    expect(tools.find((tool) => tool.name === LONG_TOOL_NAME)?.name).toHaveLength(100);
    expect(tools.find((tool) => tool.name === "files/read.v2")?.inputSchema).toMatchObject({
      properties: { encoding: { type: ["string", "null"] } },
    });
    expect(tools.find((tool) => tool.name === "refs")?.inputSchema).toHaveProperty("$defs.point.required", ["x", "y"]);
    expect(shared.health(KEY)).toBe("ready");
    expect(await shared.listTools(KEY, config)).toBe(tools); // cached, same connection
  });

  it("passes progress notifications to onProgress", async () => {
    const progress: ToolProgress[] = [];
    const result = await shared.callTool(
      KEY,
      config,
      "slow",
      { ms: 400, steps: 4 },
      {
        signal: noSignal(),
        timeoutMs: 5_000,
        onProgress: (update) => progress.push(update),
      },
    );

    expect(result).toEqual({ content: [{ type: "text", text: "slept 400 ms" }], isError: false });
    expect(progress).toEqual([1, 2, 3, 4].map((step) => ({ progress: step, total: 4, message: `step ${step} of 4` })));
  });

  it("delivers the last progress notification before the result, every time", async () => {
    // The server writes its last progress and its result back to back; the SDK alone would settle
    // the call first and drop that progress (it dispatches notifications a microtask later).
    for (let round = 0; round < 20; round++) {
      const progress: ToolProgress[] = [];
      let seenAtResult = -1;
      await shared
        .callTool(
          KEY,
          config,
          "slow",
          { ms: 0, steps: 3 },
          {
            signal: noSignal(),
            timeoutMs: 5_000,
            onProgress: (update) => progress.push(update),
          },
        )
        .then(() => (seenAtResult = progress.length));
      expect(seenAtResult).toBe(3);
      expect(progress.at(-1)).toEqual({ progress: 3, total: 3, message: "step 3 of 3" });
    }
  });

  it("cancels a call when its AbortSignal aborts, and the server hears about it", async () => {
    const before = await cancelledCount();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();

    const error = await rejection(
      shared.callTool(KEY, config, "slow", { ms: 10_000 }, { signal: controller.signal, timeoutMs: 20_000 }),
    );

    expect(error.code).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(2_000);
    await vi.waitFor(async () => expect(await cancelledCount()).toBe(before + 1));
    expect(shared.health(KEY)).toBe("ready");
  });

  it("times a call out after timeoutMs, and the server hears about it", async () => {
    const before = await cancelledCount();
    const started = Date.now();

    const error = await rejection(call("slow", { ms: 10_000 }, 200));

    expect(error.code).toBe("timeout");
    expect(error.message).toBe("The fixture connector did not answer within 200 ms.");
    expect(Date.now() - started).toBeLessThan(2_000);
    await vi.waitFor(async () => expect(await cancelledCount()).toBe(before + 1));
  });

  it("reports an already-aborted signal as cancelled without calling", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      shared.callTool(KEY, config, "echo", { text: "x" }, { signal: controller.signal, timeoutMs: 5_000 }),
    );
    expect(error.code).toBe("cancelled");
  });

  it("leaves no listener on a long-lived signal once its calls finish", async () => {
    const turn = new AbortController();
    for (let index = 0; index < 5; index += 1) {
      await shared.callTool(KEY, config, "echo", { text: `call ${index}` }, { signal: turn.signal, timeoutMs: 5_000 });
    }
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
  });

  it("keeps isError results and turns server errors into failed", async () => {
    expect(await call("fail")).toMatchObject({ isError: true });
    const error = await rejection(call("explode"));
    expect(error.code).toBe("failed");
    expect(error.message).toBe("The fixture connector reported an error: exploded on purpose");
  });
});

// Each test starts and crashes real child processes: a loaded machine needs more than the default 5 s.
describe("fixture connections over stdio", { timeout: 30_000 }, () => {
  it("refreshes the tool list once per burst of list_changed and calls onToolsChanged", async () => {
    const { pool, toolsChanged } = trackedPool({ listChangedDebounceMs: 150 });
    const call = caller(pool);
    const listCalls = async () => ((await call("stats")).structuredContent as { listCalls: number }).listCalls;
    await pool.listTools(KEY, config);
    expect(await listCalls()).toBe(1);

    await call("add_tool", { name: "dynamic.one" });
    await call("add_tool", { name: "dynamic/two" });
    await vi.waitFor(() => expect(toolsChanged).toEqual([KEY]), { timeout: 3_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(toolsChanged).toEqual([KEY]);
    expect(await listCalls()).toBe(2); // two notifications, one refresh

    const names = (await pool.listTools(KEY, config)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["dynamic.one", "dynamic/two"]));

    await call("remove_tool", { name: "dynamic.one" });
    await vi.waitFor(() => expect(toolsChanged).toHaveLength(2), { timeout: 3_000 });
    expect((await pool.listTools(KEY, config)).map((tool) => tool.name)).not.toContain("dynamic.one");
  });

  it("reports a crash mid-call as unavailable, turns unhealthy, and reconnects on the next listTools", async () => {
    const { pool, health } = trackedPool();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    await pool.listTools(KEY, config);

    const error = await rejection(caller(pool)("crash"));

    expect(error.code).toBe("unavailable");
    expect(error.message).toBe(
      "The fixture connector's server went away during the call; its tools are unavailable until it is back. Ask an administrator to check the server log.",
    );
    expect(pool.health(KEY)).toBe("unhealthy");
    expect(health).toEqual(["ready", "unhealthy"]);
    expect(pool.lastError(KEY)).toBe("The server closed the connection. Ask an administrator to check the server log.");
    expect(pool.recentStderr(KEY)).toContain("mcp-fixture: crashing on purpose");
    expect(String(warn.mock.calls.at(-1)?.[0])).toContain("mcp-fixture: crashing on purpose");

    expect(await pool.listTools(KEY, config)).toHaveLength(staticTools.length);
    expect(pool.health(KEY)).toBe("ready");
    expect(health.at(-1)).toBe("ready");
  });

  it("reconnects in the background after a crash, without any caller", async () => {
    const { pool, health } = trackedPool();
    await pool.listTools(KEY, config);
    await rejection(caller(pool)("crash"));

    await vi.waitFor(() => expect(pool.health(KEY)).toBe("ready"), { timeout: 5_000, interval: 50 });
    expect(health).toEqual(["ready", "unhealthy", "ready"]); // `connecting` is transient: never reported
  });

  it("gives a stdio child the connector's env on a minimal base, never the app's secrets", async () => {
    vi.stubEnv("PATCHBAY_TEST_SECRET", "do-not-leak");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const { pool } = trackedPool();

    const result = await caller(pool, fixtureStdioConfig({ FIXTURE_TAG: "blue" }))("process_info");
    const { env } = result.structuredContent as { env: Record<string, string> };

    expect(env.FIXTURE_TAG).toBe("blue");
    expect(env.PATH).toBeTruthy();
    expect(env.PATCHBAY_TEST_SECRET).toBeUndefined();
    expect(JSON.stringify(env)).not.toContain("do-not-leak");
  });

  it("replaces the connection when a key's config changes, and closeAll kills the child", async () => {
    const { pool, health } = trackedPool();
    const pidOf = async (tag: string) => {
      const result = await caller(pool, fixtureStdioConfig({ TAG: tag }))("process_info");
      return (result.structuredContent as { pid: number }).pid;
    };
    const first = await pidOf("a");
    expect(await pidOf("a")).toBe(first);

    const second = await pidOf("b");
    expect(second).not.toBe(first);
    await vi.waitFor(() => expect(isAlive(first)).toBe(false), { timeout: 5_000 });
    expect(health).toEqual(["ready", "ready"]); // the retired one is silent

    await pool.closeAll();
    expect(pool.health(KEY)).toBe("closed");
    expect(health.at(-1)).toBe("closed");
    await vi.waitFor(() => expect(isAlive(second)).toBe(false), { timeout: 5_000 });
  });

  it("keeps a stdio server's stderr from users and the model, and logs it for the operator with its secrets redacted", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const { pool } = trackedPool();
    const secret = "sk-live-0123456789abcdef";
    const leaky: ConnectorConfig = {
      kind: "stdio",
      command: process.execPath,
      args: ["-e", "console.error('booting with key ' + process.env.SERVICE_API_KEY); process.exit(3)"],
      env: { SERVICE_API_KEY: secret },
    };

    const error = await rejection(pool.listTools("leaky", leaky));

    expect(error.message).toBe(
      "The leaky connector is unavailable: Connection closed. Ask an administrator to check the server log.",
    );
    expect(pool.lastError("leaky")).toBe(
      "Could not connect: Connection closed. Ask an administrator to check the server log.",
    );
    expect(pool.recentStderr("leaky")).toEqual([`booting with key ${secret}`]); // server-side only
    const logged = warn.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(logged).toContain("[patchbay] MCP connector leaky: Could not connect: Connection closed");
    expect(logged).toContain("booting with key [redacted]");
    expect(logged).not.toContain(secret);
  });

  it("fails with a readable error when the command does not exist", async () => {
    const { pool, health } = trackedPool();
    const missing = { kind: "stdio" as const, command: "/nonexistent/mcp-server", args: [], env: {} };

    const error = await rejection(pool.listTools("missing", missing));

    expect(error.code).toBe("unavailable");
    expect(error.message).toMatch(/^The missing connector is unavailable: .*ENOENT/);
    expect(pool.health("missing")).toBe("unhealthy");
    expect(pool.lastError("missing")).toContain("ENOENT");
    expect(health).toEqual(["unhealthy"]);
  });
});

describe("reconnect backoff, on a fake clock with a real fixture process", () => {
  const realSetTimeout = globalThis.setTimeout;
  const sleep = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

  async function waitForHealth(pool: ConnectionPool, health: ConnectionHealth): Promise<void> {
    for (let waited = 0; pool.health(KEY) !== health; waited += 20) {
      if (waited > 10_000) throw new Error(`still ${pool.health(KEY)}, not ${health}`);
      await sleep(20);
    }
  }

  it(
    "retries 0.5 s after a drop, doubling up to 30 s, and starts over once a connection stayed up 10 s",
    { timeout: 60_000 },
    async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined); // one line per crash
      onTestFinished(() => warn.mockRestore());
      const { pool } = trackedPool();
      await pool.listTools(KEY, config);

      /** Crashes the server at once (so it was not up 10 s) and checks the background retry comes after exactly `delay`. */
      const crashThenRetryAfter = async (delay: number) => {
        await rejection(caller(pool)("crash"));
        expect(pool.health(KEY)).toBe("unhealthy");
        await vi.advanceTimersByTimeAsync(delay - 1);
        expect(pool.health(KEY)).toBe("unhealthy"); // not yet
        await vi.advanceTimersByTimeAsync(1);
        expect(pool.health(KEY)).toBe("connecting"); // the retry has started
        await waitForHealth(pool, "ready");
      };

      for (const delay of [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]) await crashThenRetryAfter(delay);
      await vi.advanceTimersByTimeAsync(10_000); // up for 10 s
      await crashThenRetryAfter(500);
    },
  );
});

describe("fixture connection over Streamable HTTP", () => {
  it("sends the configured headers, lists tools and follows list_changed", async () => {
    const server = await startFixtureHttp();
    onTestFinished(() => server.stop());
    const { pool, toolsChanged } = trackedPool({ listChangedDebounceMs: 50 });
    const http: ConnectorConfig = { kind: "streamable-http", url: server.url, headers: { "x-test": "1" } };

    expect(await pool.listTools("http", http)).toHaveLength(staticTools.length);
    expect((await caller(pool, http, "http")("request_headers")).structuredContent).toMatchObject({ "x-test": "1" });
    await caller(pool, http, "http")("add_tool", { name: "over_http" });

    await vi.waitFor(() => expect(toolsChanged).toEqual(["http"]), { timeout: 3_000 });
    expect((await pool.listTools("http", http)).map((tool) => tool.name)).toContain("over_http");
  });

  it("reports a server that dies mid-call as disconnected, and refuses to connect while it is down", async () => {
    const server = await startFixtureHttp();
    onTestFinished(() => server.stop());
    const { pool, health } = trackedPool();
    const http: ConnectorConfig = { kind: "streamable-http", url: server.url, headers: {} };
    const call = caller(pool, http, "http");
    await pool.listTools("http", http);

    const crashed = await rejection(call("crash"));
    expect(crashed.code).toBe("unavailable");
    expect(crashed.message).toBe(
      "The http connector's server went away during the call; its tools are unavailable until it is back.",
    );
    expect(health).toEqual(["ready", "unhealthy"]);

    const refused = await rejection(call("echo", { text: "anyone?" }));
    expect(refused.code).toBe("unavailable");
    expect(refused.message).toMatch(/^The http connector is unavailable: /);
    expect(pool.health("http")).toBe("unhealthy");
  });

  it("asks checkUrl before every HTTP connect and stays away from refused URLs", async () => {
    const checked: string[] = [];
    const remote = {
      checkUrl: (url: string) => {
        checked.push(url);
        return Promise.reject(new Error("That address is on a private network."));
      },
      fetchFor: () => undefined,
    };
    const pool = new ConnectionPool({ remote });
    onTestFinished(() => pool.closeAll());
    const http: ConnectorConfig = { kind: "streamable-http", url: "http://10.0.0.1/mcp", headers: {} };

    const error = await rejection(pool.listTools("private", http));

    expect(error.message).toBe("The private connector is unavailable: That address is on a private network.");
    expect(checked).toEqual(["http://10.0.0.1/mcp"]);
    expect(pool.lastError("private")).toBe("Could not connect: That address is on a private network.");
  });
});
