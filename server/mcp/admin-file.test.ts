// The admin file must accept what operators copy from Claude Desktop, Cursor and Cline, and reject
// everything else with a message that names the file and the exact entry to fix. Values are literal.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AppError } from "../errors.ts";
import { loadAdminConnectors, parseAdminFile } from "./admin-file.ts";

const FILE = "/etc/patchbay/mcp-servers.json";

function parse(json: unknown): ReturnType<typeof parseAdminFile> {
  return parseAdminFile(JSON.stringify(json), FILE);
}

/** The message parseAdminFile throws for `text`; fails the test if it accepts it. */
function errorFor(text: string): string {
  try {
    parseAdminFile(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("internal:config");
    expect((error as AppError).message).toContain(`Invalid MCP servers file ${FILE} (MCP_SERVERS_FILE)`);
    return (error as AppError).message;
  }
  throw new Error(`parseAdminFile accepted ${text}`);
}

const errorForJson = (json: unknown): string => errorFor(JSON.stringify(json));

describe("parseAdminFile: accepted shapes", () => {
  it("reads a Claude Desktop file with stdio and remote servers, in file order", () => {
    const connectors = parse({
      mcpServers: {
        filesystem: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"],
        },
        github: {
          command: "docker",
          args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" },
          cwd: "/opt/github",
          autoApprove: ["get_me"],
        },
        linear: { url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer lin_123" } },
      },
    });
    expect(connectors).toEqual([
      {
        name: "filesystem",
        disabled: false,
        config: {
          kind: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"],
          env: {},
        },
      },
      {
        name: "github",
        disabled: false,
        config: {
          kind: "stdio",
          command: "docker",
          args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
          // literal: ${VAR} is not expanded
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" },
          cwd: "/opt/github",
        },
      },
      {
        name: "linear",
        disabled: false,
        config: {
          kind: "streamable-http",
          url: "https://mcp.linear.app/mcp",
          headers: { Authorization: "Bearer lin_123" },
        },
      },
    ]);
  });

  it.each([
    [{}, "streamable-http"],
    [{ type: "http" }, "streamable-http"],
    [{ type: "streamable-http" }, "streamable-http"],
    [{ type: "streamableHttp" }, "streamable-http"],
    [{ transport: "streamableHttp" }, "streamable-http"],
    [{ type: "sse" }, "sse"],
    [{ transport: "sse" }, "sse"],
    [{ type: "sse", transport: "sse" }, "sse"],
    [{ type: "http", transport: "streamable-http" }, "streamable-http"],
  ])("reads a url server with %j as %s", (fields, kind) => {
    const [connector] = parse({ mcpServers: { remote: { url: "http://10.0.0.5:8080/sse", ...fields } } });
    expect(connector?.config).toEqual({ kind, url: "http://10.0.0.5:8080/sse", headers: {} });
  });

  it('accepts "type": "stdio" next to a command', () => {
    const [connector] = parse({ mcpServers: { local: { type: "stdio", command: "uvx", args: ["mcp-server-time"] } } });
    expect(connector?.config).toEqual({ kind: "stdio", command: "uvx", args: ["mcp-server-time"], env: {} });
  });

  it("keeps disabled servers, flagged", () => {
    const connectors = parse({
      mcpServers: {
        off: { command: "node", args: ["server.js"], disabled: true },
        on: { command: "node", disabled: false },
      },
    });
    expect(connectors.map(({ name, disabled }) => ({ name, disabled }))).toEqual([
      { name: "off", disabled: true },
      { name: "on", disabled: false },
    ]);
  });

  it('runs a stdio server per user unless "shared": true', () => {
    const [perUser, shared] = parse({
      mcpServers: { memory: { command: "node" }, clock: { command: "node", shared: true } },
    });
    expect(perUser?.config).toEqual({ kind: "stdio", command: "node", args: [], env: {} });
    expect(shared?.config).toEqual({ kind: "stdio", command: "node", args: [], env: {}, shared: true });
  });

  it("accepts an empty server list", () => {
    expect(parse({ mcpServers: {} })).toEqual([]);
  });
});

describe("parseAdminFile: refused input", () => {
  it("names a bad server name", () => {
    const message = errorForJson({ mcpServers: { "my server": { command: "x" }, ["a".repeat(41)]: { command: "y" } } });
    expect(message).toContain('mcpServers["my server"]: server name "my server" is not allowed');
    expect(message).toContain(`server name "${"a".repeat(41)}" is not allowed`);
  });

  it('refuses the server name "builtin", which belongs to the built-in tools', () => {
    const message = errorForJson({ mcpServers: { builtin: { command: "x" }, BuiltIn: { command: "y" } } });
    expect(message).toContain(
      'mcpServers.builtin: server name "builtin" is not allowed ("builtin" is reserved for Patchbay\'s built-in tools)',
    );
    expect(message).toContain('server name "BuiltIn" is not allowed');
  });

  it("reports invalid JSON with the parser's position", () => {
    const message = errorFor('{"mcpServers": {"a": {"command": "x",}}}');
    expect(message).toMatch(/not valid JSON \(.*position \d+/);
  });

  it("explains the expected top level", () => {
    expect(errorForJson({ servers: {} })).toContain('expected an object with "mcpServers"');
    expect(errorForJson([])).toContain('expected an object with "mcpServers"');
  });

  it.each([
    [{ args: ["x"] }, 'mcpServers.broken: needs a "command" (stdio) or a "url"'],
    [{ command: "x", url: "https://a.example" }, 'mcpServers.broken: declare a "command" (stdio) or a "url", not both'],
    [{ command: "" }, "mcpServers.broken.command: must not be empty"],
    [{ command: "x", args: "--flag" }, "mcpServers.broken.args: "],
    [{ command: "x", args: ["ok", 3] }, "mcpServers.broken.args[1]: "],
    [{ command: "x", env: { PORT: 3000 } }, "mcpServers.broken.env.PORT: "],
    [{ command: "x", type: "sse" }, 'mcpServers.broken: "sse" servers take a "url", not a "command"'],
    [{ command: "x", headers: { A: "b" } }, 'mcpServers.broken: a stdio server does not take "headers" (use "env")'],
    [{ url: "ftp://files.example" }, "mcpServers.broken.url: must be an http:// or https:// URL"],
    [{ url: "not a url" }, "mcpServers.broken.url: must be an http:// or https:// URL"],
    [{ url: "https://a.example", type: "stdio" }, 'mcpServers.broken: "stdio" servers take a "command", not a "url"'],
    [{ url: "https://a.example", type: "websocket" }, 'mcpServers.broken.type: must be "stdio", "http"'],
    [
      { url: "https://a.example", type: "sse", transport: "http" },
      'mcpServers.broken: "type" (sse) and "transport" (http) disagree',
    ],
    [{ url: "https://a.example", env: { A: "b" } }, 'mcpServers.broken: a url server does not take "env" (stdio only)'],
    [{ url: "https://a.example", shared: true }, 'mcpServers.broken: a url server does not take "shared" (stdio only)'],
    [{ command: "node", shared: "yes" }, "mcpServers.broken.shared: "],
    [
      { command: "node", env: { FILE: "${PATCHBAY_USER_DIR}/f" }, shared: true },
      'mcpServers.broken: a "shared" server has no one user, so it cannot use ${PATCHBAY_USER_DIR}',
    ],
    [
      { url: "https://a.example", headers: { "Bad Name": "x" } },
      'mcpServers.broken.headers["Bad Name"]: is not a valid HTTP header name',
    ],
    [
      { url: "https://a.example", headers: { "X-Key": "a\r\nHost: evil" } },
      "mcpServers.broken.headers.X-Key: must not contain line breaks",
    ],
    [{ command: "x", disabled: "yes" }, "mcpServers.broken.disabled: "],
    ["npx server", "mcpServers.broken: "],
  ])("refuses %j", (entry, expected) => {
    expect(errorForJson({ mcpServers: { fine: { command: "ok" }, broken: entry } })).toContain(expected);
  });

  it("lists every problem at once", () => {
    const message = errorForJson({ mcpServers: { a: {}, "b c": { command: "x" }, d: { url: "nope" } } });
    expect(message.split("\n").filter((line) => line.startsWith("  - "))).toHaveLength(3);
  });
});

describe("loadAdminConnectors", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "patchbay-admin-file-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("returns [] when no file is configured", async () => {
    expect(await loadAdminConnectors(undefined)).toEqual([]);
  });

  it("reads the file at the given path", async () => {
    const file = path.join(dir, "servers.json");
    await writeFile(file, JSON.stringify({ mcpServers: { time: { command: "uvx", args: ["mcp-server-time"] } } }));
    expect(await loadAdminConnectors(file)).toEqual([
      { name: "time", disabled: false, config: { kind: "stdio", command: "uvx", args: ["mcp-server-time"], env: {} } },
    ]);
  });

  it("names the file in a parse error", async () => {
    const file = path.join(dir, "bad.json");
    await writeFile(file, "{ not json");
    await expect(loadAdminConnectors(file)).rejects.toThrow(
      `Invalid MCP servers file ${file} (MCP_SERVERS_FILE): not valid JSON`,
    );
  });

  it("names a file that cannot be read", async () => {
    const file = path.join(dir, "missing.json");
    await expect(loadAdminConnectors(file)).rejects.toThrow(
      `The MCP servers file ${file} (MCP_SERVERS_FILE) could not be read`,
    );
  });
});
