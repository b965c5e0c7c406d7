// One MCP tool call as a turn needs it: arguments checked against the tool's own JSON Schema before
// anything is sent (so the model gets a precise "invalid_arguments" it can fix), the call made
// through the pool (cancellation, timeout, progress), and the MCP result turned into a compact,
// provider-neutral JSON output. Invariants: binary payloads (images, audio, blobs) never reach the
// model — they become `{ type, mimeType, bytes }` placeholders; the output never exceeds
// `maxOutputChars` plus a short truncation note; `isError` is the server's own verdict, and its
// output then takes the canonical failure shape `{ error: { code: "tool_error", message } }`.
import { Ajv, type ErrorObject, type Options as AjvOptions, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { ContentBlockSchema } from "@modelcontextprotocol/sdk/types.js";

import { type JsonValue } from "../core/canonical.ts";
import { ToolError } from "../core/tool-source.ts";
import { type ConnectionPool, stableJson } from "./connection-pool.ts";
import { type McpCallResult, type McpTool, type ToolProgress } from "./connection-types.ts";
import { type ConnectorConfig } from "./transports.ts";

export type McpToolCallOptions = {
  signal: AbortSignal;
  timeoutMs: number;
  maxOutputChars: number;
  onProgress?: (progress: ToolProgress) => void;
};

export async function callMcpTool(
  pool: ConnectionPool,
  key: string,
  config: ConnectorConfig,
  tool: McpTool,
  args: Record<string, JsonValue>,
  options: McpToolCallOptions,
): Promise<{ output: JsonValue; isError: boolean }> {
  assertValidArguments(tool, args);
  const { signal, timeoutMs, onProgress } = options;
  const result = await pool.callTool(key, config, tool.name, args, { signal, timeoutMs, onProgress });
  const output = capOutput(toOutput(result), options.maxOutputChars);
  if (!result.isError) return { output, isError: false };
  // The server's own failure, in the one shape every failure takes (error-output.ts renders it).
  const message = typeof output === "string" ? output : JSON.stringify(output);
  return { output: { error: { code: "tool_error", message } }, isError: true };
}

const ajvOptions: AjvOptions = { allErrors: true, strict: false, validateFormats: false };
const MAX_CACHED_VALIDATORS = 1_000;
const MAX_REPORTED_PROBLEMS = 10;
/** Compiled validators by schema text; `null` marks a schema Ajv cannot compile (left to the server). */
const validators = new Map<string, ValidateFunction | null>();

/**
 * Throws ToolError("invalid_arguments") naming every field that does not match the tool's schema,
 * then the schema of each failing top-level field ("Expected: {...}"), so the model can correct its
 * next call (metrics count the corrections that succeed).
 */
export function assertValidArguments(tool: McpTool, args: Record<string, JsonValue>): void {
  const validate = validatorFor(tool.inputSchema);
  if (!validate || validate(args)) return;
  const errors = validate.errors ?? [];
  const problems = [...new Set(errors.map(describeProblem))];
  const listed = problems.slice(0, MAX_REPORTED_PROBLEMS).join("; ");
  const more = problems.length > MAX_REPORTED_PROBLEMS ? `; and ${problems.length - MAX_REPORTED_PROBLEMS} more` : "";
  const expected = expectedFields(tool.inputSchema, errors);
  throw new ToolError("invalid_arguments", `Invalid arguments for ${tool.name}: ${listed}${more}.${expected}`);
}

const MAX_EXPECTED_CHARS = 1_000;

/** ` Expected: {field: its schema, ...}` for the failing top-level fields the schema declares, or "". */
function expectedFields(schema: Record<string, JsonValue>, errors: ErrorObject[]): string {
  const properties = schema.properties;
  if (!properties || typeof properties !== "object" || Array.isArray(properties)) return "";
  const fields = errors.map((error) => {
    const [, first] = error.instancePath.split("/");
    if (first !== undefined) return first.replaceAll("~1", "/").replaceAll("~0", "~");
    return error.keyword === "required" ? String((error.params as { missingProperty?: unknown }).missingProperty) : "";
  });
  const expected = Object.fromEntries(
    [...new Set(fields)].filter((field) => Object.hasOwn(properties, field)).map((field) => [field, properties[field]]),
  );
  if (Object.keys(expected).length === 0) return "";
  const text = JSON.stringify(expected);
  return ` Expected: ${text.length > MAX_EXPECTED_CHARS ? `${text.slice(0, MAX_EXPECTED_CHARS)}…` : text}`;
}

function validatorFor(schema: Record<string, JsonValue>): ValidateFunction | null {
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  const compiled = compile(schema);
  if (validators.size >= MAX_CACHED_VALIDATORS) validators.delete(validators.keys().next().value ?? "");
  validators.set(key, compiled);
  return compiled;
}

/**
 * MCP schemas are JSON Schema 2020-12 unless they say otherwise; draft-06/07 ones keep their own
 * rules. A fresh Ajv per schema: two servers may reuse one `$id`, which a shared instance rejects.
 */
function compile(schema: Record<string, JsonValue>): ValidateFunction | null {
  const { $schema, ...rest } = schema;
  const isOldDraft = typeof $schema === "string" && /draft-0[4-7]/.test($schema);
  try {
    return isOldDraft ? new Ajv(ajvOptions).compile(rest) : new Ajv2020(ajvOptions).compile(rest);
  } catch {
    return null;
  }
}

function describeProblem(error: ErrorObject): string {
  const path = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${joinField(path, String(params.missingProperty))} is required`;
    case "additionalProperties":
      return `${joinField(path, String(params.additionalProperty))} is not allowed`;
    case "type":
      return `${path || "the arguments"} must be ${[params.type].flat().join(" or ")}`;
    case "const":
      return `${path || "the arguments"} must be ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `${path || "the arguments"} must be one of ${JSON.stringify(params.allowedValues)}`;
    default:
      return `${path || "the arguments"} ${error.message ?? "is not valid"}`;
  }
}

/** "/a/0/b.c" → `a[0]["b.c"]` */
function fieldPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce(joinField, "");
}

function joinField(path: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
  if (/^[A-Za-z_$][\w$-]*$/.test(segment)) return path ? `${path}.${segment}` : segment;
  return `${path}[${JSON.stringify(segment)}]`;
}

/**
 * Text-only results become one string. Anything richer becomes `{ content: [...parts] }`, plus
 * `structuredContent` when the server sent it (then the text block that merely repeats it as JSON,
 * as the spec suggests servers do, is dropped).
 */
export function toOutput(result: McpCallResult): JsonValue {
  const { structuredContent } = result;
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map(toPart).filter((part) => !repeatsStructured(part, structuredContent));
  const texts = parts.flatMap((part) => (isTextPart(part) ? [part.text] : []));
  if (structuredContent === undefined && texts.length === parts.length) return texts.join("\n");
  return {
    ...(parts.length > 0 && { content: parts }),
    ...(structuredContent !== undefined && { structuredContent }),
  };
}

type OutputPart = { [key: string]: JsonValue };

function toPart(raw: JsonValue): OutputPart {
  const parsed = ContentBlockSchema.safeParse(raw);
  if (!parsed.success) {
    const type = raw && typeof raw === "object" && !Array.isArray(raw) ? raw.type : undefined;
    return { type: "unsupported", originalType: typeof type === "string" ? type : null };
  }
  const block = parsed.data;
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return { type: block.type, mimeType: block.mimeType, bytes: base64Bytes(block.data) };
    case "resource": {
      const { resource } = block;
      const part: OutputPart = { type: "resource", uri: resource.uri };
      if (resource.mimeType !== undefined) part.mimeType = resource.mimeType;
      if ("text" in resource) part.text = resource.text;
      else part.bytes = base64Bytes(resource.blob);
      return part;
    }
    case "resource_link": {
      const { uri, name, description, mimeType } = block;
      return {
        type: "resource_link",
        uri,
        name,
        ...(description !== undefined && { description }),
        ...(mimeType !== undefined && { mimeType }),
      };
    }
  }
}

function isTextPart(part: OutputPart): part is { type: "text"; text: string } {
  return part.type === "text" && typeof part.text === "string";
}

function repeatsStructured(part: OutputPart, structured: JsonValue | undefined): boolean {
  if (structured === undefined || !isTextPart(part)) return false;
  try {
    return stableJson(JSON.parse(part.text)) === stableJson(structured);
  } catch {
    return false;
  }
}

/** Decoded size of a base64 payload, without decoding it. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Strings are measured as they are, anything else as its JSON; longer output becomes a cut string. */
export function capOutput(output: JsonValue, maxChars: number): JsonValue {
  const text = typeof output === "string" ? output : JSON.stringify(output);
  if (text.length <= maxChars) return output;
  let end = Math.max(0, maxChars);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // never split a surrogate pair
  return `${text.slice(0, end)}…[truncated: ${text.length - end} more characters]`;
}
