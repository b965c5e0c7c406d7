// The connection pool against the MCP project's own reference servers, run offline from
// node_modules/.bin: server-everything over stdio and Streamable HTTP, server-memory and
// server-filesystem over stdio. These are servers we did not write, so they catch assumptions our
// fixture shares with our client.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";

import { BIN, freePort, startServerProcess } from "../../e2e/support/mcp-fixture/launch.ts";
import { type JsonValue } from "../core/canonical.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { callMcpTool } from "./tool-call.ts";
import { type ConnectorConfig } from "./transports.ts";

const options = { signal: new AbortController().signal, timeoutMs: 10_000 };
const textOf = (content: JsonValue) => JSON.stringify(content);

let pool: ConnectionPool;
beforeAll(() => {
  pool = new ConnectionPool();
});
afterAll(() => pool.closeAll());

describe("server-everything over stdio", () => {
  const everything: ConnectorConfig = {
    kind: "stdio",
    command: BIN("mcp-server-everything"),
    args: ["stdio"],
    env: { EVERYTHING_TAG: "from-config" },
  };

  it("lists its tools and answers a call", async () => {
    const names = (await pool.listTools("everything", everything)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-env"]));

    const sum = await pool.callTool("everything", everything, "get-sum", { a: 2, b: 3 }, options);
    expect(sum.isError).toBe(false);
    expect(textOf(sum.content)).toContain("5");
  });

  it("turns its image into a placeholder through callMcpTool", async () => {
    const tool = (await pool.listTools("everything", everything)).find((entry) => entry.name === "get-tiny-image");
    if (!tool) throw new Error("get-tiny-image is missing");

    const { output } = await callMcpTool(
      pool,
      "everything",
      everything,
      tool,
      {},
      { ...options, maxOutputChars: 10_000 },
    );

    const parts = (output as { content: { type: string; mimeType?: string; bytes?: number }[] }).content;
    const image = parts.find((part) => part.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(image?.bytes).toBeGreaterThan(100);
    expect(JSON.stringify(output)).not.toContain("iVBORw0KGgo");
  });

  it("starts the child with the connector's env and without the app's", async () => {
    vi.stubEnv("PATCHBAY_TEST_SECRET", "do-not-leak");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    await pool.close("everything"); // respawn under the stubbed environment

    const result = await pool.callTool("everything", everything, "get-env", {}, options);

    expect(textOf(result.content)).toContain("from-config");
    expect(textOf(result.content)).not.toContain("do-not-leak");
  });
});

describe("server-everything over Streamable HTTP", () => {
  it("lists tools and answers echo", async () => {
    const port = await freePort();
    const server = await startServerProcess({
      command: BIN("mcp-server-everything"),
      args: ["streamableHttp"],
      env: { PORT: String(port) },
      ready: /listening on port \d+/,
    });
    onTestFinished(() => server.stop());
    const http: ConnectorConfig = { kind: "streamable-http", url: `http://127.0.0.1:${port}/mcp`, headers: {} };

    const names = (await pool.listTools("everything-http", http)).map((tool) => tool.name);
    expect(names).toContain("echo");
    const echoed = await pool.callTool("everything-http", http, "echo", { message: "over http" }, options);
    expect(textOf(echoed.content)).toContain("over http");
    expect(pool.health("everything-http")).toBe("ready");
    await pool.close("everything-http");
  });
});

describe("server-everything over legacy SSE", () => {
  it("connects with our headers and answers echo", async () => {
    const port = await freePort();
    const server = await startServerProcess({
      command: BIN("mcp-server-everything"),
      args: ["sse"],
      env: { PORT: String(port) },
      ready: /running on port \d+/,
    });
    onTestFinished(() => server.stop());
    const sse: ConnectorConfig = { kind: "sse", url: `http://127.0.0.1:${port}/sse`, headers: { "x-patchbay": "1" } };

    const echoed = await pool.callTool("everything-sse", sse, "echo", { message: "over sse" }, options);

    expect(textOf(echoed.content)).toContain("over sse");
    await pool.close("everything-sse");
  });
});

describe("server-memory over stdio", () => {
  it("stores entities and reads them back", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "patchbay-memory-"));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const memory: ConnectorConfig = {
      kind: "stdio",
      command: BIN("mcp-server-memory"),
      args: [],
      env: { MEMORY_FILE_PATH: path.join(folder, "memory.jsonl") },
    };
    const entity = { name: "Patchbay", entityType: "project", observations: ["re-wires MCP tools live"] };

    const created = await pool.callTool("memory", memory, "create_entities", { entities: [entity] }, options);
    const graph = await pool.callTool("memory", memory, "read_graph", {}, options);

    expect(created.isError).toBe(false);
    expect(graph.structuredContent).toMatchObject({ entities: [entity] });
    expect(await readFile(path.join(folder, "memory.jsonl"), "utf8")).toContain("re-wires MCP tools live");
    await pool.close("memory");
  });
});

describe("server-filesystem over stdio", () => {
  it("writes and reads inside the allowed folder, and refuses a path outside it as an MCP error", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "patchbay-files-"));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const files: ConnectorConfig = { kind: "stdio", command: BIN("mcp-server-filesystem"), args: [folder], env: {} };
    const inside = path.join(folder, "note.txt");

    const written = await pool.callTool("files", files, "write_file", { path: inside, content: "hello" }, options);
    const read = await pool.callTool("files", files, "read_text_file", { path: inside }, options);
    const outside = await pool.callTool("files", files, "read_text_file", { path: "/etc/hostname" }, options);

    expect(written.isError).toBe(false);
    expect(read).toMatchObject({ isError: false, structuredContent: { content: "hello" } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside.content)).toContain("Access denied");
    await pool.close("files");
  });
});
