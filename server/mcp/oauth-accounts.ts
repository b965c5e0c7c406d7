// A user's own accounts on remote connectors (MCP OAuth): the status the UI shows, starting an
// authorization (the URL the browser opens), the callback that finishes it, and disconnecting.
// Invariants:
// - Only connectors with per-user credentials (connection-keys.ts) take part; the owner is always
//   the signed-in user, and the callback only completes an authorization that user started.
// - Starting uses a `reauthorize` provider: stored tokens keep working until the new ones arrive.
// - After tokens arrive or are forgotten, the user's pooled connection is closed (its next use
//   connects with the current tokens) and that user's chats using the connector are rebuilt, so
//   tools appear or disappear on the next model request.
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { connectionKey, hasPerUserCredentials } from "./connection-keys.ts";
import type { ConnectionPool } from "./connection-pool.ts";
import { completeMcpAuthorization, McpOAuthProvider, type McpOAuthOwner, type SecretSealer } from "./oauth-provider.ts";
import type { PrismaMcpTokenStore } from "./oauth-store.ts";
import type { McpRegistry } from "./registry.ts";
import type { ResolvedConnector } from "./registry-options.ts";
import type { RemoteAccess } from "./remote-access.ts";
import { assertVisibleConnector } from "./session-tools.ts";

/**
 * `connected`: the user's tokens are stored. `needs_authorization`: the server asked this user to
 * sign in (or refused their tokens). `available`: the server has not asked (yet); the user may
 * connect an account anyway. `not_required`: the connector's credentials are not per user.
 */
export type OAuthStatus = "connected" | "needs_authorization" | "available" | "not_required";
export type ConnectorOAuthStatusDto = { connectorId: string; status: OAuthStatus };

export type OAuthAccountDeps = {
  db: Db;
  pool: ConnectionPool;
  registry: McpRegistry;
  resolveConnector: (connectorId: string) => Promise<ResolvedConnector | null>;
  store: PrismaMcpTokenStore;
  /** The SSRF policy for every URL the OAuth flow fetches (remote-access.ts); none in tests. */
  remote?: RemoteAccess;
  sealer?: SecretSealer;
};

export type OAuthCallbackInput = { code: string | null; state: string | null; error: string | null };

type OAuthConnector = ResolvedConnector & { config: { kind: "streamable-http" | "sse"; url: string } };

export async function listOAuthStatuses(deps: OAuthAccountDeps, userId: string): Promise<ConnectorOAuthStatusDto[]> {
  const [connectors, grants] = await Promise.all([
    deps.db.connector.findMany({
      where: { OR: [{ source: "admin" }, { source: "user", ownerId: userId }] },
      select: { id: true },
    }),
    deps.store.grantStates(userId),
  ]);
  return Promise.all(
    connectors.map(async ({ id }): Promise<ConnectorOAuthStatusDto> => {
      const resolved = await deps.resolveConnector(id).catch(() => null);
      if (!resolved || !hasPerUserCredentials(resolved.config)) return { connectorId: id, status: "not_required" };
      const grant = grants.get(id);
      const isRefused = deps.pool.health(connectionKey(resolved, userId)) === "needs_authorization";
      if (grant?.hasTokens && !isRefused) return { connectorId: id, status: "connected" };
      if (isRefused || grant?.hasAskedForAuthorization) return { connectorId: id, status: "needs_authorization" };
      return { connectorId: id, status: "available" };
    }),
  );
}

/** Starts an authorization for the user on the connector; returns the URL their browser opens. */
export async function startOAuthConnection(
  deps: OAuthAccountDeps,
  userId: string,
  connectorId: string,
  baseUrl: string,
): Promise<{ authorizationUrl: string }> {
  const connector = await oauthConnector(deps, userId, connectorId);
  const provider = providerFor(deps, { userId, connectorId }, baseUrl);
  await deps.remote?.checkUrl(connector.config.url);
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, { serverUrl: connector.config.url, fetchFn: oauthFetch(deps, connector) });
  } catch (error) {
    throw new AppError(
      "bad_request:connector",
      `${connector.name} did not offer an account sign-in Patchbay can use (MCP authorization).`,
      { cause: error },
    );
  }
  const authorizationUrl = await provider.pendingAuthorizationUrl();
  if (result !== "REDIRECT" || !authorizationUrl || !/^https?:$/.test(new URL(authorizationUrl).protocol)) {
    throw new AppError("bad_request:connector", `${connector.name} did not send a sign-in page to open.`);
  }
  return { authorizationUrl };
}

/** Why a callback did not connect: not this user's (or a spent) sign-in, refused by the user, or failed. */
export type OAuthCallbackResult =
  | { ok: true; connectorId: string }
  | { ok: false; reason: "expired" | "denied" | "failed"; connectorId: string | null };

/**
 * The OAuth redirect target: `state` must be a pending authorization of this user (it is consumed
 * either way); trades the code for tokens, then reconnects the user's connection.
 */
export async function completeOAuthCallback(
  deps: OAuthAccountDeps,
  userId: string,
  input: OAuthCallbackInput,
  baseUrl: string,
): Promise<OAuthCallbackResult> {
  const { code, state, error } = input;
  const owner = state ? await deps.store.findOwnerByState(state) : null;
  if (!state || !owner || owner.userId !== userId) return { ok: false, reason: "expired", connectorId: null };
  const { connectorId } = owner;
  const connector = await oauthConnector(deps, userId, connectorId).catch(() => null);
  if (!connector) return { ok: false, reason: "failed", connectorId };
  const provider = providerFor(deps, owner, baseUrl);
  if (error || !code) {
    if (await provider.consumeState(state)) await provider.clearPendingAuthorization();
    return { ok: false, reason: error === "access_denied" ? "denied" : "failed", connectorId };
  }
  try {
    const fetchFn = oauthFetch(deps, connector);
    await completeMcpAuthorization({ provider, serverUrl: connector.config.url, code, state, fetchFn });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    console.warn(`[patchbay] connecting an account to connector ${connectorId} failed: ${message}`);
    return { ok: false, reason: "failed", connectorId };
  }
  await reconnect(deps, connector, userId, "account connected");
  return { ok: true, connectorId };
}

/** Forgets the user's tokens and registration for the connector and closes their connection. */
export async function disconnectOAuthAccount(deps: OAuthAccountDeps, userId: string, connectorId: string) {
  const connector = await oauthConnector(deps, userId, connectorId);
  await deps.store.remove({ userId, connectorId });
  await reconnect(deps, connector, userId, "account disconnected");
  return { connectorId };
}

async function oauthConnector(deps: OAuthAccountDeps, userId: string, connectorId: string): Promise<OAuthConnector> {
  await assertVisibleConnector(deps.db, userId, connectorId);
  const connector = await deps.resolveConnector(connectorId);
  if (!connector) throw new AppError("not_found:connector");
  if (connector.config.kind === "stdio" || !hasPerUserCredentials(connector.config)) {
    throw new AppError("bad_request:connector", `${connector.name} does not use per-user accounts.`);
  }
  return connector as OAuthConnector;
}

function oauthFetch(deps: OAuthAccountDeps, connector: OAuthConnector): FetchLike | undefined {
  return deps.remote?.fetchFor(connector.config.url);
}

function providerFor(deps: OAuthAccountDeps, owner: McpOAuthOwner, baseUrl: string): McpOAuthProvider {
  return new McpOAuthProvider({ owner, store: deps.store, baseUrl, mode: "reauthorize", sealer: deps.sealer });
}

async function reconnect(deps: OAuthAccountDeps, connector: OAuthConnector, userId: string, reason: string) {
  const key = connectionKey(connector, userId);
  await deps.pool.close(key);
  await deps.registry.rebuildForConnector(key, reason);
}
