// Runs the MCP fixture server (server.ts) as its own process:
//   tsx e2e/support/mcp-fixture/main.ts stdio
//   tsx e2e/support/mcp-fixture/main.ts http <port>   (port 0 picks a free one)
// In http mode it serves Streamable HTTP at http://127.0.0.1:<port>/mcp, one MCP session (and one
// fixture server) per client, and prints `mcp-fixture listening on <url>` to stderr once ready.
// `POST /forget-sessions` makes it forget every session, as a restarted server would (later requests
// with an old Mcp-Session-Id get 404) while its streams stay open; it answers how many sessions
// were opened so far.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo } from "node:net";

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

import { createFixtureServer } from "./server.ts";

const [mode = "stdio", portArgument = "0"] = process.argv.slice(2);

if (mode === "stdio") {
  await createFixtureServer().connect(new StdioServerTransport());
} else if (mode === "http") {
  serveHttp(Number(portArgument));
} else {
  process.stderr.write(`Unknown mode ${mode}; use "stdio" or "http <port>".\n`);
  process.exit(2);
}

function serveHttp(port: number): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  let opened = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pathname = new URL(request.url ?? "/", "http://fixture").pathname;
    if (pathname === "/forget-sessions" && request.method === "POST") {
      sessions.clear();
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ opened }));
      return;
    }
    if (pathname !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (sessionId !== undefined && !existing) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      return;
    }
    const transport = existing ?? (await openSession());
    await transport.handleRequest(request, response);
  }

  async function openSession(): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        opened += 1;
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createFixtureServer().connect(transport);
    return transport;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`mcp-fixture: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.listen(port, "127.0.0.1", () => {
    const { port: actual } = server.address() as AddressInfo;
    process.stderr.write(`mcp-fixture listening on http://127.0.0.1:${actual}/mcp\n`);
  });
}
