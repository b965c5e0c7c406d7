// An MCP server for the browser bench: Streamable HTTP (stateless: a fresh MCP server per request),
// `connectors` paths /c/0 … /c/<n-1>, each listing TOOLS_PER_CONNECTOR tools with short descriptions
// and one small object schema. The panel lists at most 50 tools per connector, so 500 tools are 10
// connectors of 50 and 1,000 are 20. Started in the bench's own process; `close()` ends it.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

export const TOOLS_PER_CONNECTOR = 50;

const verbs = ["read", "write", "list", "search", "update", "delete", "sync", "watch", "render", "export"];

function toolsOf(connector: number): Tool[] {
  return Array.from({ length: TOOLS_PER_CONNECTOR }, (_, i) => ({
    name: `${verbs[i % verbs.length]}_item.v${Math.floor(i / verbs.length)}/c${connector}`,
    description: `Bench tool ${i} of connector ${connector}: ${verbs[i % verbs.length]}s one item of the catalogue.`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  }));
}

export type ManyToolsServer = { urlOf: (connector: number) => string; close: () => Promise<void> };

export async function startManyToolsServer(): Promise<ManyToolsServer> {
  const http: HttpServer = createServer((request, response) => {
    const match = /^\/c\/(\d+)$/.exec(new URL(request.url ?? "/", "http://bench").pathname);
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    const tools = toolsOf(Number(match[1]));
    const server = new Server({ name: `bench-${match[1]}`, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close().then(() => server.close()));
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    urlOf: (connector) => `http://127.0.0.1:${port}/c/${connector}`,
    // The app keeps its connections to these servers open (keep-alive, standalone GET streams), and
    // close() alone waits for them to end: end them, or the bench never exits.
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
