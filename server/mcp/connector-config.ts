// What it takes to connect to a connector, for the server's own use (the registry and the connection
// pool): an admin connector's config from the in-memory admin list, a user connector's with its
// headers unsealed. Never returned to a browser.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { AdminConnector } from "./admin-file.ts";
import { readHeaders, toTransport } from "./connector-rows.ts";
import type { ConnectorConfig } from "./transports.ts";

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
