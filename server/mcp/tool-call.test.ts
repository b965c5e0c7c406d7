// callMcpTool against the fixture server over stdio (argument validation on its hostile schemas,
// content conversion, the output cap), plus the pure conversion and capping rules on their own.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { fixtureStdioConfig } from "../../e2e/support/mcp-fixture/launch.ts";
import { TINY_PNG } from "../../e2e/support/mcp-fixture/tools.ts";
import { type JsonValue } from "../core/canonical.ts";
import { ToolError } from "../core/tool-source.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { type McpTool } from "./connection-types.ts";
import { assertValidArguments, callMcpTool, capOutput, toOutput } from "./tool-call.ts";

const KEY = "fixture";
const config = fixtureStdioConfig();
let pool: ConnectionPool;
let tools: McpTool[];

beforeAll(async () => {
  pool = new ConnectionPool();
  tools = await pool.listTools(KEY, config);
});
afterAll(() => pool.closeAll());

function run(name: string, args: Record<string, JsonValue>, maxOutputChars = 10_000) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`The fixture has no tool ${name}`);
  return callMcpTool(pool, KEY, config, tool, args, {
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    maxOutputChars,
  });
}

async function invalidArguments(name: string, args: Record<string, JsonValue>): Promise<string> {
  const error = await run(name, args).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe("invalid_arguments");
  return (error as ToolError).message;
}

describe("argument validation against the tool's schema", () => {
  it("names every bad field through $ref, and sends nothing to the server", async () => {
    const callTool = vi.spyOn(pool, "callTool");

    const message = await invalidArguments("refs", { from: { x: 1 }, to: { x: 1, y: "2" } });

    expect(message).toMatch(
      /^Invalid arguments for refs: from\.y is required; to\.y must be number\. Expected: \{"from":/,
    );
    expect(callTool).not.toHaveBeenCalled();
    callTool.mockRestore();
  });

  it("understands type arrays and const", async () => {
    const message = await invalidArguments("nullable_const", { note: 5, mode: "slow", count: -1 });

    expect(message).toContain("note must be string or null");
    expect(message).toContain('mode must be "fast"');
    expect(message).toContain("count must be >= 0");
    expect(await run("nullable_const", { note: null, mode: "fast", count: null })).toEqual({
      output: '{"note":null,"mode":"fast","count":null}',
      isError: false,
    });
  });

  it("reports the full path eight levels deep", async () => {
    const message = await invalidArguments("deep", {
      level1: { level2: { level3: { level4: { level5: { level6: { level7: { level8: {} } } } } } } },
    });
    expect(message).toMatch(
      /^Invalid arguments for deep: level1\.level2\.level3\.level4\.level5\.level6\.level7\.level8\.leaf is required\. Expected: \{"level1":/,
    );
  });

  it("names missing and unexpected fields of a tool whose name has dots and slashes", async () => {
    const message = await invalidArguments("files/read.v2", { bogus: true });
    // The declared schema of the failing fields follows, so the model can correct its call.
    expect(message).toBe(
      'Invalid arguments for files/read.v2: path is required; bogus is not allowed. Expected: {"path":{"type":"string"}}',
    );
    expect((await run("files/read.v2", { path: "a.txt", encoding: null })).output).toBe(
      '{"path":"a.txt","encoding":null}',
    );
  });

  it("follows draft-07 schemas, ignores formats, and leaves schemas Ajv cannot compile to the server", () => {
    const draft7: McpTool = {
      name: "old",
      description: "",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        definitions: { id: { type: "string", format: "made-up-format" } },
        properties: { id: { $ref: "#/definitions/id" } },
        required: ["id"],
      },
    };
    expect(() => assertValidArguments(draft7, { id: "anything" })).not.toThrow();
    expect(() => assertValidArguments(draft7, { id: 3 })).toThrow("id must be string");

    const broken: McpTool = {
      name: "broken",
      description: "",
      inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
    };
    expect(() => assertValidArguments(broken, { a: 1 })).not.toThrow();
  });
});

describe("output conversion", () => {
  it("replaces image data with a placeholder", async () => {
    const { output, isError } = await run("image", {});

    expect(isError).toBe(false);
    expect(output).toEqual({
      content: [
        { type: "text", text: "a tiny image" },
        { type: "image", mimeType: "image/png", bytes: Buffer.from(TINY_PNG, "base64").length },
      ],
    });
    expect(JSON.stringify(output)).not.toContain(TINY_PNG.slice(0, 20));
  });

  it("keeps structuredContent, drops the text that only repeats it, and describes every other kind", async () => {
    const { output } = await run("rich", {});

    expect(output).toEqual({
      content: [
        { type: "audio", mimeType: "audio/wav", bytes: 6 },
        { type: "resource", uri: "file:///notes.txt", mimeType: "text/plain", text: "hello notes" },
        { type: "resource", uri: "file:///blob.bin", mimeType: "application/octet-stream", bytes: 3 },
        { type: "resource_link", uri: "file:///report.pdf", name: "report.pdf", mimeType: "application/pdf" },
      ],
      structuredContent: { city: "Lisbon", temperature: 21 },
    });
  });

  it("passes the server's isError through, in the canonical error shape", async () => {
    expect(await run("fail", {})).toEqual({
      output: { error: { code: "tool_error", message: "failed on purpose" } },
      isError: true,
    });
  });

  it("caps long output with a truncation note", async () => {
    const { output } = await run("echo", { text: "x".repeat(5_000) }, 100);
    expect(output).toBe(`${"x".repeat(100)}…[truncated: 4900 more characters]`);
  });

  it("keeps text that differs from structuredContent, and marks unknown blocks", () => {
    const output = toOutput({
      content: [{ type: "text", text: "summary" }, { type: "hologram" }],
      structuredContent: { a: 1 },
      isError: false,
    });
    expect(output).toEqual({
      content: [
        { type: "text", text: "summary" },
        { type: "unsupported", originalType: "hologram" },
      ],
      structuredContent: { a: 1 },
    });
  });

  it("caps structured output as JSON text and never splits a surrogate pair", () => {
    expect(capOutput({ a: "bcdef" }, 6)).toBe('{"a":"…[truncated: 7 more characters]'); // 13 characters of JSON
    expect(capOutput("ab😀cd", 3)).toBe("ab…[truncated: 4 more characters]");
    expect(capOutput("short", 5)).toBe("short");
  });
});
