// The admin file (MCP_SERVERS_FILE): the MCP servers an operator offers to every user, in the
// `{"mcpServers": {"name": {...}}}` shape Claude Desktop, Cursor and Cline use, so a file can be
// copied between them. `command` (+ args, env, cwd) declares a stdio server — only this file may;
// `url` (+ headers) a remote one, Streamable HTTP unless `type` or `transport` says "sse". Values are
// literal: `${VAR}` is not expanded, except Patchbay's own `${PATCHBAY_USER_DIR}` (user-dir.ts).
// Commands, env and headers stay in memory; only names, transports and URLs reach the database (see
// connectors.ts). Admin URLs are trusted and not run through the private-address guard. The name
// "builtin" is reserved (connector-names.ts). Keys other apps add (autoApprove, timeout, ...) are
// ignored. A stdio server runs one process per user unless its entry says `"shared": true` (for
// stateless servers; see connection-keys.ts); only stdio entries take it.
import { readFile } from "node:fs/promises";

import { z } from "zod";

import { env } from "../env.ts";
import { AppError } from "../errors.ts";
import { connectorNameSchema } from "./connector-names.ts";
import type { ConnectorConfig } from "./transports.ts";
import { USER_DIR_PLACEHOLDER } from "./user-dir.ts";

export type AdminConnector = { name: string; config: ConnectorConfig; disabled: boolean };

/** An HTTP header name (an RFC 9110 token). */
export const headerNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, { error: "is not a valid HTTP header name" });

/** An HTTP header value: no line breaks or NUL (they would split the request). */
export const headerValueSchema = z
  .string()
  .max(8_192, { error: "is too long (8192 characters at most)" })
  .regex(/^[^\r\n\0]*$/, { error: "must not contain line breaks" });

/** A header record with values of `value`; a bad name is reported on the name itself. */
export function headerRecordSchema<Value extends z.ZodType<string | null>>(value: Value) {
  return z.record(headerNameSchema, value, {
    error: (issue) => (issue.code === "invalid_key" ? "is not a valid HTTP header name" : undefined),
  });
}

/** An absolute http:// or https:// URL. */
export const httpUrlSchema = z.string().refine(
  (value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  },
  { error: "must be an http:// or https:// URL" },
);

const transportAlias = z.enum(["stdio", "http", "streamable-http", "streamableHttp", "sse"], {
  error: 'must be "stdio", "http", "streamable-http", "streamableHttp" or "sse"',
});

const kindOfAlias = {
  stdio: "stdio",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamableHttp: "streamable-http",
  sse: "sse",
} as const;

const serverEntrySchema = z.object({
  command: z.string().trim().min(1, { error: "must not be empty" }).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1, { error: "must not be empty" }).optional(),
  url: httpUrlSchema.optional(),
  headers: headerRecordSchema(headerValueSchema).optional(),
  type: transportAlias.optional(),
  transport: transportAlias.optional(),
  disabled: z.boolean().default(false),
  shared: z.boolean().optional(),
});

type ServerEntry = z.infer<typeof serverEntrySchema>;

const fileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) });

/** The entry as a ConnectorConfig, or the problem with it (the entry itself already parsed). */
function toConfig(entry: ServerEntry): ConnectorConfig | string {
  if (entry.type && entry.transport && kindOfAlias[entry.type] !== kindOfAlias[entry.transport]) {
    return `"type" (${entry.type}) and "transport" (${entry.transport}) disagree`;
  }
  const alias = entry.type ?? entry.transport;
  const kind = alias ? kindOfAlias[alias] : undefined;
  if (entry.command !== undefined && entry.url !== undefined) return 'declare a "command" (stdio) or a "url", not both';
  if (entry.command !== undefined) {
    if (kind && kind !== "stdio") return `"${alias}" servers take a "url", not a "command"`;
    if (entry.headers) return 'a stdio server does not take "headers" (use "env")';
    const { command, args = [], env: vars = {}, cwd, shared } = entry;
    const values = [command, ...args, ...Object.values(vars), cwd ?? ""];
    if (shared && values.some((value) => value.includes(USER_DIR_PLACEHOLDER))) {
      return `a "shared" server has no one user, so it cannot use ${USER_DIR_PLACEHOLDER}`;
    }
    return {
      kind: "stdio",
      command,
      args,
      env: vars,
      ...(cwd === undefined ? {} : { cwd }),
      ...(shared === true && { shared: true }),
    };
  }
  if (entry.url !== undefined) {
    if (kind === "stdio") return '"stdio" servers take a "command", not a "url"';
    const stdioOnly = (["args", "env", "cwd", "shared"] as const).filter((key) => entry[key] !== undefined);
    if (stdioOnly.length > 0)
      return `a url server does not take ${stdioOnly.map((key) => `"${key}"`).join(", ")} (stdio only)`;
    return { kind: kind ?? "streamable-http", url: entry.url, headers: entry.headers ?? {} };
  }
  return 'needs a "command" (stdio) or a "url" (Streamable HTTP / SSE)';
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === "number") return `[${key}]`;
      const text = String(key);
      if (!/^[A-Za-z0-9_-]+$/.test(text)) return `[${JSON.stringify(text)}]`;
      return index === 0 ? text : `.${text}`;
    })
    .join("");
}

/** Parses the text of an admin file; `file` only names it in errors. Throws internal:config listing every problem. */
export function parseAdminFile(text: string, file: string): AdminConnector[] {
  const fail = (details: string): never => {
    throw new AppError(
      "internal:config",
      `Invalid MCP servers file ${file} (MCP_SERVERS_FILE):${details.startsWith("\n") ? "" : " "}${details}`,
    );
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message})`);
  }
  const parsedFile = fileSchema.safeParse(json);
  if (!parsedFile.success) return fail('expected an object with "mcpServers": {"<name>": {...}}');

  const problems: string[] = [];
  const connectors: AdminConnector[] = [];
  for (const [name, raw] of Object.entries(parsedFile.data.mcpServers)) {
    const where = formatPath(["mcpServers", name]);
    const parsedName = connectorNameSchema.safeParse(name);
    if (!parsedName.success) {
      const reason = parsedName.error.issues[0]?.message ?? "is not valid";
      problems.push(`${where}: server name ${JSON.stringify(name)} is not allowed (${reason})`);
      continue;
    }
    const entry = serverEntrySchema.safeParse(raw);
    if (!entry.success) {
      for (const issue of entry.error.issues)
        problems.push(`${formatPath(["mcpServers", name, ...issue.path])}: ${issue.message}`);
      continue;
    }
    const config = toConfig(entry.data);
    if (typeof config === "string") problems.push(`${where}: ${config}`);
    else connectors.push({ name, config, disabled: entry.data.disabled });
  }
  if (problems.length > 0) fail(`\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  return connectors;
}

/** The admin connectors from `path` (default MCP_SERVERS_FILE), in file order; [] when no file is configured. */
export async function loadAdminConnectors(path: string | undefined = env.MCP_SERVERS_FILE): Promise<AdminConnector[]> {
  if (path === undefined) return [];
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new AppError(
      "internal:config",
      `The MCP servers file ${path} (MCP_SERVERS_FILE) could not be read: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return parseAdminFile(text, path);
}
