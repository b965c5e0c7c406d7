// A small MCP server of our own for tests: tools that change at runtime (add_tool / remove_tool send
// notifications/tools/list_changed), a slow tool that reports progress and honours cancellation, a
// crash tool, every content kind, and the hostile names and schemas in tools.ts. tools/list is paged
// (PAGE_SIZE per page; 100 once the list is longer than 100) so clients must follow nextCursor. One server per connection; main.ts runs it
// over stdio or Streamable HTTP.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

import { echoingTools, type FixtureTool, malformedTools, staticTools, TINY_PNG } from "./tools.ts";

export const PAGE_SIZE = 4;

type Args = Record<string, unknown>;
type Extra = {
  signal: AbortSignal;
  requestInfo?: { headers: Record<string, string | string[] | undefined> };
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
};

export function createFixtureServer(): Server {
  const server = new Server(
    { name: "patchbay-mcp-fixture", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const dynamicTools = new Map<string, FixtureTool>();
  const stats = { completed: 0, cancelled: 0, listCalls: 0 };
  const allTools = () => [...staticTools, ...malformedTools, ...dynamicTools.values()];

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (request.params?.cursor === undefined) stats.listCalls += 1;
    const start = Number(request.params?.cursor ?? 0);
    const tools = allTools();
    const end = start + (tools.length > 100 ? 100 : PAGE_SIZE);
    return { tools: tools.slice(start, end), ...(end < tools.length && { nextCursor: String(end) }) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args: Args = request.params.arguments ?? {};
    if (echoingTools.has(name) || dynamicTools.has(name)) return text(JSON.stringify(args));
    switch (name) {
      case "echo":
        return text(String(args.text));
      case "add_tool": {
        const count = typeof args.count === "number" ? args.count : null;
        const names =
          count === null ? [String(args.name)] : Array.from({ length: count }, (_, i) => `${String(args.name)}_${i}`);
        for (const added of names) {
          dynamicTools.set(added, {
            name: added,
            description: typeof args.description === "string" ? args.description : `Dynamic tool ${added}.`,
            inputSchema: { type: "object", properties: { value: { type: "string" } } },
          });
        }
        await server.sendToolListChanged();
        return text(count === null ? `added ${names[0]}` : `added ${count} tools`);
      }
      case "remove_tool":
        dynamicTools.delete(String(args.name));
        await server.sendToolListChanged();
        return text(`removed ${String(args.name)}`);
      case "slow":
        return slow(Number(args.ms), Number(args.steps ?? 4), extra, stats);
      case "stats":
        return { content: [{ type: "text", text: JSON.stringify(stats) }], structuredContent: { ...stats } };
      case "process_info": {
        const info = { pid: process.pid, env: { ...process.env } };
        return { content: [{ type: "text", text: JSON.stringify(info) }], structuredContent: info };
      }
      case "request_headers":
        return { content: [], structuredContent: { ...extra.requestInfo?.headers } };
      case "crash":
        process.stderr.write("mcp-fixture: crashing on purpose\n");
        process.exit(3);
        break;
      case "image":
        return {
          content: [
            { type: "text", text: "a tiny image" },
            { type: "image", data: TINY_PNG, mimeType: "image/png" },
          ],
        };
      case "rich":
        return rich();
      case "fail":
        return { content: [{ type: "text", text: "failed on purpose" }], isError: true };
      case "explode":
        throw new Error("exploded on purpose");
    }
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  });
  return server;
}

async function slow(
  ms: number,
  steps: number,
  extra: Extra,
  stats: { completed: number; cancelled: number; listCalls: number },
) {
  const progressToken = extra._meta?.progressToken;
  for (let step = 1; step <= steps; step += 1) {
    const finished = await sleep(ms / steps, extra.signal);
    if (!finished) {
      stats.cancelled += 1;
      throw new Error("cancelled");
    }
    if (progressToken !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: step, total: steps, message: `step ${step} of ${steps}` },
      });
    }
  }
  stats.completed += 1;
  return text(`slept ${ms} ms`);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function rich(): CallToolResult {
  const structured = { city: "Lisbon", temperature: 21 };
  return {
    content: [
      { type: "text", text: JSON.stringify(structured) },
      { type: "audio", data: "AAAAAAAA", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "hello notes" } },
      { type: "resource", resource: { uri: "file:///blob.bin", mimeType: "application/octet-stream", blob: "AAEC" } },
      { type: "resource_link", uri: "file:///report.pdf", name: "report.pdf", mimeType: "application/pdf" },
    ],
    structuredContent: structured,
  };
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}
