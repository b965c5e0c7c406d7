// A stdio MCP server for the registry bench's cold figure: it publishes connector <index>'s tools
// from registry-fixture.ts (TOOLS_PER_CONNECTOR tools with realistic schemas, in one tools/list page)
// and nothing else. `node --import tsx bench/mcp-tool-server.ts <index>`; a ConnectionPool spawns it
// and ends it by closing its stdin. The e2e fixture is not used here because it starts with its 16
// test tools and only grows through add_tool after a client has connected and listed them.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

import { connectorToolLists } from "./registry-fixture.ts";

const index = Number(process.argv[2]);
const connector = connectorToolLists()[index];
if (!connector) {
  console.error("usage: node --import tsx bench/mcp-tool-server.ts <connector index>");
  process.exit(2);
}

const server = new Server(
  { name: `patchbay-bench-${connector.name}`, version: "1.0.0" },
  { capabilities: { tools: {} } },
);
const tools = connector.tools as Tool[]; // every synthetic schema is an object schema
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
await server.connect(new StdioServerTransport());
