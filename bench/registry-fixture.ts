// The registry bench's connectors: CONNECTORS MCP servers (github, linear, postgres, …) of
// TOOLS_PER_CONNECTOR tools each, with the realistic JSON Schemas of the render bench's synthetic
// snapshot (render-fixture.ts). Pure and deterministic, and light on imports: the stdio tool server
// (mcp-tool-server.ts) publishes exactly these lists, and the in-memory pool hands out the same ones.
import type { McpTool } from "../server/mcp/connection-types.ts";
import { syntheticSnapshot } from "./render-fixture.ts";

export const CONNECTORS = 10;
export const TOOLS_PER_CONNECTOR = 50;

export type ConnectorTools = { name: string; tools: McpTool[] };

/** Connector i gets every CONNECTORS-th synthetic tool; its name is the tools' `server` part. */
export function connectorToolLists(): ConnectorTools[] {
  const specs = syntheticSnapshot(CONNECTORS * TOOLS_PER_CONNECTOR).tools;
  return Array.from({ length: CONNECTORS }, (_, index) => {
    const own = specs.filter((_spec, n) => n % CONNECTORS === index);
    const name = own[0]!.canonicalName.split(".")[0]!;
    const tools = own.map((spec) => ({
      name: spec.canonicalName.slice(name.length + 1),
      description: spec.description,
      inputSchema: spec.inputSchema,
    }));
    return { name, tools };
  });
}
