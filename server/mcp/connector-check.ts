// "Test connection" for the settings page: connects to a connector the user may use and lists its
// tools, or reports why it could not (the pool's own user-facing message, never a raw stack).
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { connectionKey } from "./connection-keys.ts";
import type { ConnectionPool } from "./connection-pool.ts";
import type { ResolvedConnector } from "./registry-options.ts";
import { assertVisibleConnector } from "./session-tools.ts";

export type ConnectorCheck =
  | { ok: true; tools: { name: string; description: string }[] }
  | { ok: false; error: string; isAuthorizationNeeded: boolean };

type Deps = { db: Db; pool: ConnectionPool; resolveConnector: (id: string) => Promise<ResolvedConnector | null> };

const CHECK_TIMEOUT_MS = 15_000;

export async function checkConnector(deps: Deps, userId: string, connectorId: string): Promise<ConnectorCheck> {
  await assertVisibleConnector(deps.db, userId, connectorId);
  const connector = await deps.resolveConnector(connectorId).catch(() => null);
  if (!connector) {
    return { ok: false, error: "This connector's configuration is no longer available.", isAuthorizationNeeded: false };
  }
  const key = connectionKey(connector, userId);
  try {
    const tools = await deps.pool.listTools(key, connector.config, AbortSignal.timeout(CHECK_TIMEOUT_MS));
    return { ok: true, tools: tools.map(({ name, description }) => ({ name, description })) };
  } catch (error) {
    const message = error instanceof AppError ? error.message : deps.pool.lastError(key);
    return {
      ok: false,
      error: message ?? "The connector could not be reached.",
      isAuthorizationNeeded: deps.pool.health(key) === "needs_authorization",
    };
  }
}
