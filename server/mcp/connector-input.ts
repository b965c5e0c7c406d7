// What a user may send to create or change a connector, checked before anything is stored: a name,
// a remote transport, an http(s) URL of sane length, and headers (at most 32, none the HTTP client or
// the MCP SDK owns, no name twice in any case). `mergeHeaders` applies a patch's header rules. Every
// refusal is a bad_request:api naming the field.
import { z } from "zod";

import { AppError } from "../errors.ts";
import { headerRecordSchema, headerValueSchema, httpUrlSchema } from "./admin-file.ts";
import { connectorNameSchema } from "./connector-names.ts";

const MAX_HEADERS = 32;
/** Headers the HTTP client or the MCP SDK owns; a connector may not set them. */
const RESERVED_HEADERS = new Set([
  ...["host", "connection", "content-length", "content-type", "transfer-encoding", "te", "trailer", "upgrade"],
  ...["keep-alive", "accept", "last-event-id", "mcp-session-id", "mcp-protocol-version"],
]);

function headersFor<Value extends z.ZodType<string | null>>(value: Value) {
  return headerRecordSchema(value).superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_HEADERS) ctx.addIssue({ code: "custom", message: `at most ${MAX_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (RESERVED_HEADERS.has(lower))
        ctx.addIssue({ code: "custom", path: [name], message: "is set by Patchbay itself" });
      if (seen.has(lower))
        ctx.addIssue({ code: "custom", path: [name], message: "is given twice (header names ignore case)" });
      seen.add(lower);
    }
  });
}

const transportSchema = z.enum(["stdio", "streamable-http", "sse"], { error: 'must be "streamable-http" or "sse"' });
const urlSchema = z.string().trim().max(2_048, { error: "is too long (2048 characters at most)" }).pipe(httpUrlSchema);

export const createConnectorInputSchema = z.object({
  name: connectorNameSchema,
  transport: transportSchema,
  url: urlSchema,
  headers: headersFor(headerValueSchema).default({}),
});

/**
 * A change to a user connector; omitted fields stay. `headers`, when given, is the complete new set:
 * a string sets that value, `null` keeps the stored value of that header, and headers left out are
 * removed. Stored values stay only while the URL keeps its origin: moving a connector to another
 * origin needs every header value again, so a stolen session cannot redirect saved tokens elsewhere.
 */
export const updateConnectorInputSchema = z.object({
  name: connectorNameSchema.optional(),
  transport: transportSchema.optional(),
  url: urlSchema.optional(),
  headers: headersFor(headerValueSchema.nullable()).optional(),
});

export type CreateConnectorInput = z.input<typeof createConnectorInputSchema>;
export type UpdateConnectorInput = z.input<typeof updateConnectorInputSchema>;

export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new AppError("bad_request:api", `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
}

/** The header set after a patch (see updateConnectorInputSchema for the rules). */
export function mergeHeaders(
  stored: Record<string, string>,
  patch: Record<string, string | null> | undefined,
  isSameOrigin: boolean,
): Record<string, string> {
  const hasStored = Object.keys(stored).length > 0;
  const keepsStored = patch === undefined ? hasStored : Object.values(patch).includes(null);
  if (keepsStored && !isSameOrigin) {
    throw new AppError(
      "bad_request:api",
      "The URL moved to another origin: enter the header values again (saved values stay with their origin).",
    );
  }
  if (patch === undefined) return stored;
  const storedByName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  return Object.fromEntries(
    Object.entries(patch).map(([name, value]) => {
      const kept = value ?? storedByName.get(name.toLowerCase());
      if (kept === undefined)
        throw new AppError("bad_request:api", `Header "${name}" has no saved value to keep; enter its value.`);
      return [name, kept];
    }),
  );
}
