// MCP OAuth end to end against the real Postgres and a real OAuth-protected MCP server
// (e2e/support/mcp-oauth): a connector offered to everybody, two users who each connect their own
// account through the consent page and the callback step, the registry and the connection pool as
// the app wires them (background providers over the Postgres token store). What must hold: tools
// appear only once the user connected, every call carries that user's own token, a callback only
// completes the signed-in user's own pending authorization, a rotated refresh token is persisted
// (also when two instances refresh at once), and disconnecting forgets one user's tokens only.
import { randomBytes } from "node:crypto";

import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { type FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { answerConsent } from "../../e2e/support/mcp-oauth/consent.ts";
import { startOAuthMcpServer, type OAuthMcpServer } from "../../e2e/support/mcp-oauth/server.ts";
import { openWithKey, sealWithKey } from "../crypto/secrets.ts";
import type { Db } from "../db/client.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { createUserWithSession } from "../../e2e/support/testbeds/engine.ts";
import type { AdminConnector } from "./admin-file.ts";
import { connectionKey, parseConnectionKey } from "./connection-keys.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { resolveConnector as resolveConnectorRow } from "./connector-config.ts";
import { syncAdminConnectors } from "./admin-connector-sync.ts";
import {
  completeOAuthCallback,
  disconnectOAuthAccount,
  listOAuthStatuses,
  startOAuthConnection,
  type OAuthAccountDeps,
} from "./oauth-accounts.ts";
import { McpOAuthProvider, type SecretSealer } from "./oauth-provider.ts";
import { PrismaMcpTokenStore } from "./oauth-store.ts";
import { McpRegistry } from "./registry.ts";
import { getSessionTools, setConnectorEnabled } from "./session-tools.ts";

const BASE_URL = "https://patchbay.example.org";
const key = randomBytes(32);
const sealer: SecretSealer = {
  seal: (plaintext) => Promise.resolve(sealWithKey(key, plaintext)),
  open: (sealed) => Promise.resolve(openWithKey(key, sealed)),
};

let database: TestDatabase;
let db: Db;
let server: OAuthMcpServer;
let pool: ConnectionPool;
let registry: McpRegistry;
let deps: OAuthAccountDeps;
let notesId: string;
const events = { registry: null as McpRegistry | null };
let alice: { userId: string; sessionId: string };
let bob: { userId: string; sessionId: string };

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  server = await startOAuthMcpServer();
  const adminFile: AdminConnector[] = [
    { name: "notes", disabled: false, config: { kind: "streamable-http", url: server.url, headers: {} } },
  ];
  await syncAdminConnectors(db, adminFile);
  notesId = (await db.connector.findFirstOrThrow({ where: { name: "notes" } })).id;
  const store = new PrismaMcpTokenStore(db);
  pool = new ConnectionPool({
    onToolsChanged: (poolKey) =>
      void events.registry?.rebuildForConnector(poolKey, "list_changed").catch(() => undefined),
    onHealthChanged: (poolKey) => void events.registry?.rebuildForConnector(poolKey, "health").catch(() => undefined),
    authProvider: (poolKey) => {
      const { connectorId, userId } = parseConnectionKey(poolKey);
      if (userId === null) return undefined;
      return new McpOAuthProvider({
        owner: { userId, connectorId },
        store,
        baseUrl: BASE_URL,
        sealer,
        mode: "background",
      });
    },
  });
  const resolveConnector = (id: string) => resolveConnectorRow(db, id, adminFile);
  registry = new McpRegistry({ db, pool, resolveConnector, toolTimeoutMs: 5_000, maxOutputChars: 10_000 });
  events.registry = registry;
  deps = { db, pool, registry, resolveConnector, store, sealer };
  alice = await createUserWithSession(db, "Alice");
  bob = await createUserWithSession(db, "Bob");
  for (const user of [alice, bob]) {
    await setConnectorEnabled(deps, user.userId, { ...user, connectorId: notesId, enabled: true });
  }
});

afterAll(async () => {
  events.registry = null; // no rebuilds from connections closing now
  await pool?.closeAll();
  await server?.close();
  await database?.drop();
});

/** Connect, consent as `account`, and come back through the callback step, as the browser does. */
async function connectAccount(user: { userId: string }, account: string) {
  const { authorizationUrl } = await startOAuthConnection(deps, user.userId, notesId, BASE_URL);
  const answer = await answerConsent(authorizationUrl, account);
  return completeOAuthCallback(deps, user.userId, answer, BASE_URL);
}

async function callTool(user: { sessionId: string }, canonicalName: string) {
  const { revision } = await registry.snapshot(user.sessionId);
  const outcome = await registry.call(
    user.sessionId,
    { canonicalName, args: {}, revision },
    new AbortController().signal,
  );
  return JSON.stringify(outcome.output);
}

async function toolNames(user: { sessionId: string }): Promise<string[]> {
  return (await registry.snapshot(user.sessionId)).tools
    .map((tool) => tool.canonicalName)
    .filter((name) => name.startsWith("notes."))
    .sort();
}

async function storedTokens(userId: string) {
  const row = await db.mcpOAuthGrant.findUnique({
    where: { userId_connectorId: { userId, connectorId: notesId } },
  });
  return row?.sealedTokens
    ? (JSON.parse(await sealer.open(row.sealedTokens)) as { access_token: string; refresh_token: string })
    : null;
}

describe("MCP OAuth accounts", () => {
  it("shows authorization needed until the user connects; then each user's calls carry their own token", async () => {
    await registry.rebuild(alice.sessionId, "test");
    expect(await toolNames(alice)).toEqual([]);
    const panel = await getSessionTools(deps, alice.userId, alice.sessionId);
    expect(panel.connectors.find((c) => c.id === notesId)?.health).toBe("needs_authorization");
    expect(await listOAuthStatuses(deps, alice.userId)).toEqual([
      { connectorId: notesId, status: "needs_authorization" },
    ]);

    expect(await connectAccount(alice, "alice-account")).toEqual({ ok: true, connectorId: notesId });
    expect(await toolNames(alice)).toEqual(["notes.add_note", "notes.list_notes", "notes.whoami"]);
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-account");
    // Bob's chat still has no tools from the connector: Alice's account is hers alone.
    await registry.rebuild(bob.sessionId, "test");
    expect(await toolNames(bob)).toEqual([]);

    expect(await connectAccount(bob, "bob-account")).toEqual({ ok: true, connectorId: notesId });
    expect(await callTool(bob, "notes.whoami")).toContain("signed in as bob-account");
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-account");
    expect(await listOAuthStatuses(deps, bob.userId)).toEqual([{ connectorId: notesId, status: "connected" }]);

    // Two pooled connections, one per user, and two grants whose tokens are sealed at rest.
    const resolved = { id: notesId, config: { kind: "streamable-http" as const, url: server.url, headers: {} } };
    expect(pool.health(connectionKey(resolved, alice.userId))).toBe("ready");
    expect(pool.health(connectionKey(resolved, bob.userId))).toBe("ready");
    const rows = JSON.stringify(await db.mcpOAuthGrant.findMany({ where: { connectorId: notesId } }));
    expect(JSON.parse(rows)).toHaveLength(2);
    for (const user of [alice, bob]) {
      const tokens = await storedTokens(user.userId);
      expect(tokens?.access_token).toMatch(/^at_/);
      for (const secret of [tokens?.access_token, tokens?.refresh_token]) expect(rows).not.toContain(secret);
    }
  });

  it("completes a callback only for the user who started it, and only once", async () => {
    const { authorizationUrl } = await startOAuthConnection(deps, alice.userId, notesId, BASE_URL);
    const answer = await answerConsent(authorizationUrl, "alice-second");
    expect(await completeOAuthCallback(deps, bob.userId, answer, BASE_URL)).toEqual({
      ok: false,
      reason: "expired",
      connectorId: null,
    });
    expect(await completeOAuthCallback(deps, alice.userId, answer, BASE_URL)).toEqual({
      ok: true,
      connectorId: notesId,
    });
    expect(await completeOAuthCallback(deps, alice.userId, answer, BASE_URL)).toMatchObject({
      ok: false,
      reason: "expired",
    });
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-second");
    expect(await callTool(bob, "notes.whoami")).toContain("signed in as bob-account");

    const denied = await answerConsent(
      (await startOAuthConnection(deps, alice.userId, notesId, BASE_URL)).authorizationUrl,
      "alice-third",
      "deny",
    );
    expect(await completeOAuthCallback(deps, alice.userId, denied, BASE_URL)).toEqual({
      ok: false,
      reason: "denied",
      connectorId: notesId,
    });
    // The refusal consumed the state; the account that was connected stays connected.
    expect(await db.mcpOAuthGrant.count({ where: { state: { not: null } } })).toBe(0);
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-second");
  });

  it("persists a rotated refresh token, also when another instance refreshes at the same time", async () => {
    const refreshes = server.stats.refreshes;
    server.expireAccessTokens();
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-second");
    expect(server.stats.refreshes).toBe(refreshes + 1);
    expect(server.liveRefreshTokens("alice-second")).toEqual([(await storedTokens(alice.userId))?.refresh_token]);

    // Two instances hold the same refresh token; B presents it only after A rotated it.
    const owner = { userId: alice.userId, connectorId: notesId };
    const instance = () =>
      new McpOAuthProvider({
        owner,
        store: new PrismaMcpTokenStore(db),
        baseUrl: BASE_URL,
        sealer,
        mode: "background",
      });
    const [a, b] = [instance(), instance()];
    let release!: () => void;
    let bPresents!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bReady = new Promise<void>((resolve) => (bPresents = resolve));
    let isGated = false;
    const gatedFetch: FetchLike = async (url, init) => {
      if (!isGated && init?.body instanceof URLSearchParams && init.body.get("grant_type") === "refresh_token") {
        isGated = true;
        bPresents();
        await gate;
      }
      return fetch(url, init);
    };
    const refused = server.stats.refusedRefreshes;
    const bAuth = auth(b, { serverUrl: server.url, fetchFn: gatedFetch });
    await bReady;
    expect(await auth(a, { serverUrl: server.url })).toBe("AUTHORIZED");
    release();
    expect(await bAuth).toBe("AUTHORIZED");

    expect(server.stats.refusedRefreshes).toBe(refused + 1);
    expect(server.liveRefreshTokens("alice-second")).toEqual([(await storedTokens(alice.userId))?.refresh_token]);
    expect(await a.pendingAuthorizationUrl()).toBeNull();
    expect(await callTool(alice, "notes.whoami")).toContain("signed in as alice-second");
  });

  it("disconnecting forgets that user's tokens and tools; the other user's stay", async () => {
    expect(await disconnectOAuthAccount(deps, alice.userId, notesId)).toEqual({ connectorId: notesId });
    expect(await storedTokens(alice.userId)).toBeNull();
    expect(await listOAuthStatuses(deps, alice.userId)).toEqual([
      { connectorId: notesId, status: "needs_authorization" },
    ]);
    expect(await toolNames(alice)).toEqual([]);
    await expect(callTool(alice, "notes.whoami")).rejects.toThrow(/not available/);
    expect(await callTool(bob, "notes.whoami")).toContain("signed in as bob-account");
    expect(await storedTokens(bob.userId)).not.toBeNull();
  });

  it("a connection that keeps needing authorization settles: retries rebuild no revisions", async () => {
    const revisionOf = async () =>
      (await db.chatSession.findUniqueOrThrow({ where: { id: alice.sessionId } })).toolsRevision;
    await new Promise((resolve) => setTimeout(resolve, 300)); // rebuilds from the disconnect finish
    const settled = await revisionOf();
    for (let attempt = 0; attempt < 3; attempt++) {
      await getSessionTools(deps, alice.userId, alice.sessionId); // each one tries the server again
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await revisionOf()).toBe(settled);
    expect(
      pool.health(
        connectionKey({ id: notesId, config: { kind: "streamable-http", url: server.url, headers: {} } }, alice.userId),
      ),
    ).toBe("needs_authorization");
  });
});
