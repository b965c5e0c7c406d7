// Users' connectors and who may touch them: listing (the admin connectors and the user's own), and
// creating, changing and deleting the user's own remote connectors. Input is checked by
// connector-input.ts, header values are sealed by connector-rows.ts, user URLs pass the URL guard.
// Ownership is enforced here: a user sees the admin connectors and their own, can change only their
// own, and another user's connector is indistinguishable from a missing one. Admin connectors mirror
// the admin file (admin-connector-sync.ts); the server connects through connector-config.ts.
import type { Db } from "../db/client.ts";
import { env } from "../env.ts";
import { AppError, logAppError, toAppError } from "../errors.ts";
import { Prisma, type Connector } from "../generated/prisma/client.ts";
import {
  createConnectorInputSchema,
  mergeHeaders,
  parseInput,
  updateConnectorInputSchema,
  type CreateConnectorInput,
  type UpdateConnectorInput,
} from "./connector-input.ts";
import { readHeaders, sealHeaders, toTransport, type ConnectorTransport } from "./connector-rows.ts";
import { assertPublicUrl, type LookupAll } from "../core/url-guard.ts";

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
  if (!row) throw new AppError("not_found:connector");
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
    if (count === 0) throw new AppError("not_found:connector");
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(name) : error;
  }
  return toDto({ ...row, name, transport, url, secrets }, Object.keys(headers));
}

export async function deleteUserConnector(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.connector.deleteMany({ where: { id, source: "user", ownerId: userId } });
  if (count === 0) await getOwnConnector(db, userId, id); // throws forbidden (admin) or not_found
}
