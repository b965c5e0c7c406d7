// Which pooled connection serves a connector for a user. State and credentials decide:
// - a stdio server keeps state in its process (server-memory remembers what one user told it), so
//   each user gets their own process (key = `connectorId:userId`), unless the admin file marks it
//   `"shared": true` (a stateless server), which runs one process for everybody (key = connector id);
// - a remote connector whose config fixes an Authorization header has one set of credentials for
//   everybody and shares one connection (key = connector id);
// - any other remote connector may ask each user to connect their own account (MCP OAuth), so it
//   gets one connection per connector and user whose transport carries that user's OAuth provider.
// One user's process, connection, session or token never serves another user.
import type { ConnectorConfig } from "./transports.ts";

const SEPARATOR = ":";

export type ConnectionOwner = { connectorId: string; userId: string | null };

/** True when each user brings their own credentials (OAuth) to this connector. */
export function hasPerUserCredentials(config: ConnectorConfig): boolean {
  if (config.kind === "stdio") return false;
  return !Object.keys(config.headers).some((name) => name.toLowerCase() === "authorization");
}

/** True when each user gets a connection of their own: per-user credentials, or a stdio process. */
export function isPerUser(config: ConnectorConfig): boolean {
  return config.kind === "stdio" ? config.shared !== true : hasPerUserCredentials(config);
}

/** The pool key of `connector` when used on behalf of `userId`. */
export function connectionKey(connector: { id: string; config: ConnectorConfig }, userId: string): string {
  if (connector.id.includes(SEPARATOR)) throw new Error(`A connector id may not contain "${SEPARATOR}".`);
  return isPerUser(connector.config) ? `${connector.id}${SEPARATOR}${userId}` : connector.id;
}

/** The connector and, for a per-user key, the user a pool key belongs to. */
export function parseConnectionKey(key: string): ConnectionOwner {
  const at = key.indexOf(SEPARATOR);
  if (at === -1) return { connectorId: key, userId: null };
  return { connectorId: key.slice(0, at), userId: key.slice(at + SEPARATOR.length) };
}
