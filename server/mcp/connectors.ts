// Connectors and who may touch them. Admin connectors mirror the admin file: a row per offered
// server with its name, transport and URL origin only (commands, env, headers and full URLs stay in
// memory, since a URL path can itself be a credential). User connectors are remote only; their
// header values are sealed (secrets.ts) into `secrets` and never leave this module except inside a
// ConnectorConfig. Ownership is enforced here: a user sees the admin connectors and their own, can
// change only their own, and another user's connector is indistinguishable from a missing one.
import { z } from "zod";

import { openSecret, sealSecret } from "../crypto/secrets.ts";
import type { Db } from "../db/client.ts";
import { env } from "../env.ts";
import { AppError, logAppError, toAppError } from "../errors.ts";
import { Prisma, type Connector } from "../generated/prisma/client.ts";
import { headerRecordSchema, headerValueSchema, httpUrlSchema, type AdminConnector } from "./admin-file.ts";
import { connectorNameSchema } from "./connector-names.ts";
import type { ConnectorConfig } from "./transports.ts";
import { assertPublicUrl, type LookupAll } from "../core/url-guard.ts";

export type ConnectorTransport = ConnectorConfig["kind"];

export type ConnectorDto = {
  id: string;
  source: "admin" | "user";
  name: string;
  transport: ConnectorTransport;
  url: string | null;
  hasSecrets: boolean;
  /** Names of the stored headers; their values are never sent back. */
  headerNames: string[];
  isReadOnly: boolean;
};

/** How user URLs are checked; defaults to MCP_ALLOW_PRIVATE_URLS and the system resolver. */
export type UrlPolicy = { allowPrivateUrls?: boolean; lookup?: LookupAll };

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

const sealedSecretsSchema = z.object({ headers: z.record(z.string(), z.string()) });

function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new AppError("bad_request:api", `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
}

function toTransport(transport: string): ConnectorTransport {
  if (transport === "stdio" || transport === "streamable-http" || transport === "sse") return transport;
  throw new AppError("internal:database", `A connector has an unknown transport "${transport}".`);
}

async function readHeaders(sealed: string | null): Promise<Record<string, string>> {
  if (sealed === null) return {};
  const opened = await openSecret(sealed);
  try {
    return sealedSecretsSchema.parse(JSON.parse(opened)).headers;
  } catch (error) {
    throw new AppError("internal:database", "A connector's saved secrets are not in the expected shape.", {
      cause: error,
    });
  }
}

async function sealHeaders(headers: Record<string, string>): Promise<string | null> {
  return Object.keys(headers).length === 0 ? null : sealSecret(JSON.stringify({ headers }));
}

function toDto(row: Connector, headerNames: string[]): ConnectorDto {
  return {
    id: row.id,
    source: row.source,
    name: row.name,
    transport: toTransport(row.transport),
    url: row.url,
    hasSecrets: row.secrets !== null,
    headerNames,
    isReadOnly: row.source === "admin",
  };
}

function refuseStdio(transport: ConnectorTransport): asserts transport is "streamable-http" | "sse" {
  if (transport === "stdio") {
    throw new AppError("bad_request:api", "stdio connectors can only be declared by an admin (in MCP_SERVERS_FILE).");
  }
}

async function assertUsableUrl(url: string, policy: UrlPolicy): Promise<void> {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) {
    throw new AppError(
      "bad_request:api",
      "Put credentials in a header (e.g. Authorization), not in the connector URL.",
    );
  }
  await assertPublicUrl(url, {
    allowPrivate: policy.allowPrivateUrls ?? env.MCP_ALLOW_PRIVATE_URLS,
    lookup: policy.lookup,
  });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

function nameTaken(name: string): AppError {
  return new AppError("conflict:api", `You already have a connector named "${name}"; pick another name.`);
}

/**
 * Refuses a user connector name an admin connector uses (in any case): both would give their tools
 * the same canonical names. A clash the admin creates later is handled by the registry (name-clashes.ts).
 */
async function assertNotAdminName(db: Db, name: string): Promise<void> {
  const admin = await db.connector.findFirst({
    where: { source: "admin", name: { equals: name, mode: "insensitive" } },
    select: { name: true },
  });
  if (admin) {
    throw new AppError(
      "conflict:api",
      `"${name}" is the name of a connector your administrator set up ("${admin.name}"), so their tool names would clash; pick another name.`,
    );
  }
}

/**
 * Makes the admin connectors in the database match the admin file: one row per enabled server
 * (name, transport, URL origin), rows of servers gone or disabled deleted (with their session
 * bindings). Safe to run from several instances at once: they take turns on an advisory lock.
 */
export async function syncAdminConnectors(
  db: Db,
  admin: AdminConnector[],
): Promise<{ created: string[]; updated: string[]; removed: string[] }> {
  const offered = new Map(
    admin.filter((connector) => !connector.disabled).map((connector) => [connector.name, connector.config]),
  );
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('patchbay:admin-connectors'))`;
    const rows = await tx.connector.findMany({
      where: { source: "admin" },
      select: { id: true, name: true, transport: true, url: true },
      orderBy: { createdAt: "asc" },
    });
    const result = { created: [] as string[], updated: [] as string[], removed: [] as string[] };
    const kept = new Set<string>();
    for (const row of rows) {
      const config = offered.get(row.name);
      if (!config || kept.has(row.name)) {
        await tx.connector.delete({ where: { id: row.id } });
        result.removed.push(row.name);
        continue;
      }
      kept.add(row.name);
      const url = config.kind === "stdio" ? null : new URL(config.url).origin;
      if (row.transport !== config.kind || row.url !== url) {
        await tx.connector.update({ where: { id: row.id }, data: { transport: config.kind, url } });
        result.updated.push(row.name);
      }
    }
    for (const [name, config] of offered) {
      if (kept.has(name)) continue;
      const url = config.kind === "stdio" ? null : new URL(config.url).origin;
      await tx.connector.create({ data: { source: "admin", ownerId: null, name, transport: config.kind, url } });
      result.created.push(name);
    }
    for (const names of Object.values(result)) names.sort();
    return result;
  });
}

/** The admin connectors and the user's own, admin first, each group by name. */
export async function listConnectors(db: Db, userId: string): Promise<ConnectorDto[]> {
  const rows = await db.connector.findMany({
    where: { OR: [{ source: "admin" }, { source: "user", ownerId: userId }] },
    orderBy: [{ source: "asc" }, { name: "asc" }],
  });
  return Promise.all(
    rows.map(async (row) => {
      // An unreadable row must not hide the others: it is listed without header names and logged.
      const headers = await readHeaders(row.secrets).catch((error: unknown) => {
        logAppError(toAppError(error), `connector ${row.id}`);
        return {};
      });
      return toDto(row, Object.keys(headers));
    }),
  );
}

/** The user's own connector; admin ones are forbidden (read-only), anybody else's not found. */
async function getOwnConnector(db: Db, userId: string, id: string): Promise<Connector> {
  const row = await db.connector.findFirst({
    where: { id, OR: [{ source: "admin" }, { ownerId: userId }] },
  });
  if (!row) throw new AppError("not_found:api", "That connector does not exist or is not yours.");
  if (row.source === "admin")
    throw new AppError("forbidden:api", "Admin connectors are read-only; ask an admin to change the MCP servers file.");
  return row;
}

export async function createUserConnector(
  db: Db,
  userId: string,
  input: CreateConnectorInput,
  policy: UrlPolicy = {},
): Promise<ConnectorDto> {
  const { name, transport, url, headers } = parseInput(createConnectorInputSchema, input);
  refuseStdio(transport);
  await assertNotAdminName(db, name);
  await assertUsableUrl(url, policy);
  try {
    const row = await db.connector.create({
      data: { source: "user", ownerId: userId, name, transport, url, secrets: await sealHeaders(headers) },
    });
    return toDto(row, Object.keys(headers));
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(name) : error;
  }
}

/** The header set after a patch (see updateConnectorInputSchema for the rules). */
function mergeHeaders(
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

export async function updateUserConnector(
  db: Db,
  userId: string,
  id: string,
  patch: UpdateConnectorInput,
  policy: UrlPolicy = {},
): Promise<ConnectorDto> {
  const changes = parseInput(updateConnectorInputSchema, patch);
  const row = await getOwnConnector(db, userId, id);
  const transport = changes.transport ?? toTransport(row.transport);
  refuseStdio(transport);
  const url = changes.url ?? row.url!;
  if (changes.url !== undefined && changes.url !== row.url) await assertUsableUrl(url, policy);
  const isSameOrigin = row.url !== null && new URL(row.url).origin === new URL(url).origin;
  const headers = mergeHeaders(await readHeaders(row.secrets), changes.headers, isSameOrigin);
  const name = changes.name ?? row.name;
  if (changes.name !== undefined && changes.name !== row.name) await assertNotAdminName(db, name);
  const secrets = changes.headers === undefined ? row.secrets : await sealHeaders(headers);
  try {
    const { count } = await db.connector.updateMany({
      where: { id, source: "user", ownerId: userId },
      data: { name, transport, url, secrets },
    });
    if (count === 0) throw new AppError("not_found:api", "That connector does not exist or is not yours.");
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(name) : error;
  }
  return toDto({ ...row, name, transport, url, secrets }, Object.keys(headers));
}

export async function deleteUserConnector(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.connector.deleteMany({ where: { id, source: "user", ownerId: userId } });
  if (count === 0) await getOwnConnector(db, userId, id); // throws forbidden (admin) or not_found
}

/**
 * What it takes to connect to a connector, for the server's own use (the registry, the connection
 * pool): admin connectors from the in-memory admin list by name, user connectors with their headers
 * unsealed. Null when the connector is gone, or is an admin connector the file no longer offers.
 * No user check: callers pass ids taken from session bindings, which were checked when bound.
 */
export async function getConnectorConfig(
  db: Db,
  connectorId: string,
  adminConnectors: AdminConnector[],
): Promise<ConnectorConfig | null> {
  return (await resolveConnector(db, connectorId, adminConnectors))?.config ?? null;
}

/** A connector's id, name and config (see getConnectorConfig) from one read of its row. */
export async function resolveConnector(
  db: Db,
  connectorId: string,
  adminConnectors: AdminConnector[],
): Promise<{ id: string; name: string; config: ConnectorConfig } | null> {
  const row = await db.connector.findUnique({ where: { id: connectorId } });
  if (!row) return null;
  if (row.source === "admin") {
    const admin = adminConnectors.find((connector) => connector.name === row.name && !connector.disabled);
    return admin ? { id: row.id, name: row.name, config: admin.config } : null;
  }
  const transport = toTransport(row.transport);
  if (transport === "stdio" || row.url === null)
    throw new AppError("internal:database", `User connector ${row.id} is not a remote connector.`);
  return {
    id: row.id,
    name: row.name,
    config: { kind: transport, url: row.url, headers: await readHeaders(row.secrets) },
  };
}
