// The fixture's static tool list: plain tools the tests drive (echo, slow, crash, …) and HOSTILE ones
// that real servers publish and a client must survive — names with dots and slashes, a 100-character
// name, `$ref`/`$defs`, type arrays, `const`, and eight levels of nesting. Raw JSON Schemas on
// purpose: McpServer only takes zod shapes, so server.ts uses the low-level Server class.
export type FixtureTool = {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  /** MCP tool annotations; `echo` is marked read-only (a read-only sub-agent gets it). */
  annotations?: { readOnlyHint?: boolean };
};

export const LONG_TOOL_NAME = `long_${"n".repeat(95)}`;

/** Eight nested objects, innermost holding a required string `leaf`: level1.level2…level8.leaf. */
export function deepSchema(depth = 8): { type: "object"; [key: string]: unknown } {
  let schema: { type: "object"; [key: string]: unknown } = {
    type: "object",
    properties: { leaf: { type: "string" } },
    required: ["leaf"],
  };
  for (let level = depth; level >= 1; level -= 1) {
    schema = { type: "object", properties: { [`level${level}`]: schema }, required: [`level${level}`] };
  }
  return schema;
}

export const staticTools: FixtureTool[] = [
  {
    name: "echo",
    description: "Returns `text` unchanged.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
  },
  {
    name: "add_tool",
    description:
      "Adds a tool that echoes its arguments (or `count` of them, named `<name>_0`…), then sends notifications/tools/list_changed.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        description: { type: "string" },
        count: { type: "integer", minimum: 1, maximum: 5000 },
      },
      required: ["name"],
    },
  },
  {
    name: "remove_tool",
    description: "Removes a tool added with add_tool, then sends notifications/tools/list_changed.",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  {
    name: "slow",
    description: "Waits `ms` milliseconds in `steps` steps, reporting progress after each; stops when cancelled.",
    inputSchema: {
      type: "object",
      properties: { ms: { type: "integer", minimum: 0 }, steps: { type: "integer", minimum: 1, default: 4 } },
      required: ["ms"],
    },
  },
  {
    name: "stats",
    description: "Counts: slow calls completed / cancelled by the client, and tools/list requests (first pages).",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "process_info",
    description: "The server's pid and environment (tests check what a stdio child inherits).",
    inputSchema: { type: "object" },
  },
  {
    name: "crash",
    description: "Exits the server process in the middle of the call.",
    inputSchema: { type: "object" },
  },
  { name: "image", description: "Returns a caption and a tiny PNG.", inputSchema: { type: "object" } },
  {
    name: "rich",
    description:
      "Returns every content kind: audio, embedded text and blob resources, a resource link, structured content.",
    inputSchema: { type: "object" },
  },
  { name: "fail", description: "Returns a result with isError: true.", inputSchema: { type: "object" } },
  { name: "explode", description: "Throws inside the handler (a JSON-RPC error).", inputSchema: { type: "object" } },
  {
    name: "files/read.v2",
    description: "Hostile name: slash and dot. Echoes its arguments.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, encoding: { type: ["string", "null"] } },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: LONG_TOOL_NAME,
    description: "Hostile name: 100 characters. Echoes its arguments.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "refs",
    description: "Hostile schema: $ref into $defs. Echoes its arguments.",
    inputSchema: {
      type: "object",
      $defs: {
        point: {
          type: "object",
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
        },
      },
      properties: { from: { $ref: "#/$defs/point" }, to: { $ref: "#/$defs/point" } },
      required: ["from", "to"],
    },
  },
  {
    name: "nullable_const",
    description: "Hostile schema: type arrays and const. Echoes its arguments.",
    inputSchema: {
      type: "object",
      properties: {
        note: { type: ["string", "null"] },
        mode: { const: "fast" },
        count: { type: ["integer", "null"], minimum: 0 },
      },
      required: ["note", "mode"],
    },
  },
  {
    name: "deep",
    description: "Hostile schema: eight levels of nesting. Echoes its arguments.",
    inputSchema: deepSchema(),
  },
];

/**
 * Entries a sloppy server might publish, listed after the static tools: a non-object input schema,
 * a duplicate name and a nameless tool. The SDK's own listTools rejects a whole page for any of
 * them; a client should skip just these.
 */
export const malformedTools: unknown[] = [
  { name: "not_an_object", description: "Input schema is a string schema.", inputSchema: { type: "string" } },
  { name: "echo", description: "A duplicate of echo.", inputSchema: { type: "object" } },
  { description: "No name at all.", inputSchema: { type: "object" } },
];

/** Tools that only echo their arguments back as JSON text. */
export const echoingTools = new Set(["files/read.v2", LONG_TOOL_NAME, "refs", "nullable_const", "deep"]);

/** A 1×1 transparent PNG. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
