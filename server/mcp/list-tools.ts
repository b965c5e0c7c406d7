// tools/list across all pages, for one connection (mcp-connection.ts). Lenient on purpose: the SDK's own
// listTools rejects the whole list when one tool is malformed; here a malformed, non-object or
// duplicate tool is skipped and the rest stay usable.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";

import { jsonValueSchema } from "../core/canonical.ts";
import type { McpTool } from "./connection-types.ts";

const MAX_TOOL_PAGES = 100;

const toolListPageSchema = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const toolEntrySchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), jsonValueSchema).optional(),
  annotations: z.object({ readOnlyHint: z.boolean().optional() }).loose().optional(),
});

/** Every page of tools/list (at most MAX_TOOL_PAGES), each page within `timeoutMs`. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<McpTool[]> {
  const tools = new Map<string, McpTool>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = await client.request({ method: "tools/list", params }, toolListPageSchema, { timeout: timeoutMs });
    for (const raw of result.tools) {
      const parsed = toolEntrySchema.safeParse(raw);
      const schema = parsed.data?.inputSchema ?? { type: "object" };
      if (!parsed.success || (schema.type ?? "object") !== "object" || tools.has(parsed.data.name)) continue;
      const { name, description = "" } = parsed.data;
      const tool: McpTool = { name, description, inputSchema: { ...schema, type: "object" } };
      if (parsed.data.annotations?.readOnlyHint === true) tool.readOnly = true; // docs/sub-agents.md
      tools.set(name, tool);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return [...tools.values()];
  }
  throw new Error(`The server returned more than ${MAX_TOOL_PAGES} pages of tools.`);
}
