import { randomBytes } from "node:crypto";

import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { type FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, describe, expect, it, vi } from "vitest";

import { openWithKey, sealWithKey } from "../crypto/secrets.ts";
import { ToolError } from "../core/tool-source.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { InMemoryMcpTokenStore } from "../../e2e/support/testbeds/in-memory-token-store.ts";
import { completeMcpAuthorization, McpOAuthProvider, type McpOAuthOwner, type SecretSealer } from "./oauth-provider.ts";

const SERVER_URL = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";
const BASE_URL = "https://patchbay.example.org";

function keySealer(key = randomBytes(32)): SecretSealer {
  return {
    seal: (plaintext) => Promise.resolve(sealWithKey(key, plaintext)),
    open: (sealed) => Promise.resolve(openWithKey(key, sealed)),
  };
}

/**
 * An authorization server and MCP resource metadata behind a fetch function: dynamic registration,
 * an authorization endpoint that approves at once, and a token endpoint that rotates refresh tokens.
 */
class FakeAuthorizationServer {
  readonly tokenRequests: URLSearchParams[] = [];
  private issued = 0;
  private registered = 0;
  private readonly codes = new Map<string, { challenge: string; clientId: string }>();
  private readonly refreshTokens = new Map<string, string>();
  /** Live access tokens, by the client they were issued to. */
  readonly accessTokens = new Map<string, string>();
  mcpRequests = 0;

  readonly fetch: FetchLike = (input, init) => Promise.resolve(this.route(input, init));

  private route(input: string | URL, init: RequestInit | undefined): Response {
    const url = new URL(typeof input === "string" ? input : input.toString());
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return Response.json({ resource: SERVER_URL, authorization_servers: [ISSUER] });
    }
    if (url.toString() === SERVER_URL) return this.mcp(init);
    if (url.origin !== ISSUER) return new Response("not found", { status: 404 });
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return Response.json({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/authorize`,
        token_endpoint: `${ISSUER}/token`,
        registration_endpoint: `${ISSUER}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/register") {
      const metadata = JSON.parse(bodyText(init)) as Record<string, unknown>;
      return Response.json({ ...metadata, client_id: `client-${++this.registered}` }, { status: 201 });
    }
    if (url.pathname === "/token") return this.token(new URLSearchParams(bodyText(init)));
    return new Response("not found", { status: 404 });
  }

  /** What the user's browser would do: open the URL, approve, follow the redirect to the callback. */
  approve(authorizationUrl: string): { code: string; state: string | null } {
    const url = new URL(authorizationUrl);
    const code = `code-${this.codes.size + 1}`;
    this.codes.set(code, {
      challenge: url.searchParams.get("code_challenge") ?? "",
      clientId: url.searchParams.get("client_id") ?? "",
    });
    return { code, state: url.searchParams.get("state") };
  }

  private token(params: URLSearchParams): Response {
    this.tokenRequests.push(params);
    const clientId = params.get("client_id") ?? "";
    if (params.get("grant_type") === "authorization_code") {
      const pending = this.codes.get(params.get("code") ?? "");
      if (!pending || pending.clientId !== clientId || !params.get("code_verifier")) return this.invalidGrant();
      this.codes.delete(params.get("code") ?? "");
      return this.issue(clientId);
    }
    const refreshToken = params.get("refresh_token") ?? "";
    if (this.refreshTokens.get(refreshToken) !== clientId) return this.invalidGrant();
    this.refreshTokens.delete(refreshToken);
    return this.issue(clientId);
  }

  private issue(clientId: string): Response {
    const n = ++this.issued;
    this.refreshTokens.set(`refresh-${n}`, clientId);
    this.accessTokens.set(`access-${n}`, clientId);
    return Response.json({
      access_token: `access-${n}`,
      refresh_token: `refresh-${n}`,
      token_type: "Bearer",
      expires_in: 3600,
    });
  }

  /** A minimal MCP server that wants a bearer token; its one tool says which client the token is for. */
  private mcp(init: RequestInit | undefined): Response {
    this.mcpRequests += 1;
    const token = new Headers(init?.headers).get("authorization")?.replace(/^Bearer /, "") ?? "";
    const clientId = this.accessTokens.get(token);
    if (!clientId) {
      const metadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": `Bearer resource_metadata="${metadata}"` },
      });
    }
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const message = JSON.parse(bodyText(init)) as {
      id?: number;
      method: string;
      params?: { protocolVersion?: string };
    };
    if (message.id === undefined) return new Response(null, { status: 202 });
    const results: Record<string, unknown> = {
      initialize: {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "fake", version: "1.0.0" },
      },
      "tools/list": { tools: [{ name: "whoami", inputSchema: { type: "object" } }] },
      "tools/call": { content: [{ type: "text", text: clientId }] },
    };
    return Response.json({ jsonrpc: "2.0", id: message.id, result: results[message.method] ?? {} });
  }

  private invalidGrant(): Response {
    return Response.json({ error: "invalid_grant" }, { status: 400 });
  }
}

/** The SDK sends JSON and form bodies as strings or URLSearchParams. */
function bodyText(init: RequestInit | undefined): string {
  const body = init?.body;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new Error("The fake server only reads string and form bodies.");
}

function setup() {
  const store = new InMemoryMcpTokenStore();
  const sealer = keySealer();
  const server = new FakeAuthorizationServer();
  const provider = (owner: McpOAuthOwner) => new McpOAuthProvider({ owner, store, sealer, baseUrl: BASE_URL });
  const alice = provider({ userId: "alice", connectorId: "github" });
  const bob = provider({ userId: "bob", connectorId: "github" });
  return { store, sealer, server, alice, bob };
}

/** Runs the whole authorization-code flow for one provider, as the transport and callback route do. */
async function connectAccount(provider: McpOAuthProvider, server: FakeAuthorizationServer): Promise<void> {
  expect(await auth(provider, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
  const authorizationUrl = await provider.pendingAuthorizationUrl();
  expect(authorizationUrl).not.toBeNull();
  const { code, state } = server.approve(authorizationUrl ?? "");
  await completeMcpAuthorization({ provider, serverUrl: SERVER_URL, code, state, fetchFn: server.fetch });
}

describe("McpOAuthProvider", () => {
  it("redirects to the callback route and records the authorization URL instead of navigating", async () => {
    const { server, alice } = setup();
    expect(alice.redirectUrl).toBe(`${BASE_URL}/api/mcp-oauth/callback`);
    expect(alice.clientMetadata.redirect_uris).toEqual([`${BASE_URL}/api/mcp-oauth/callback`]);

    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");

    const url = new URL((await alice.pendingAuthorizationUrl()) ?? "");
    expect(url.origin + url.pathname).toBe(`${ISSUER}/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(alice.redirectUrl);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBe(await alice.pendingState());
    expect(url.searchParams.get("resource")).toBe(SERVER_URL);
  });

  it("keeps each user's tokens and registration apart on the same connector", async () => {
    const { store, server, alice, bob } = setup();
    await connectAccount(alice, server);

    expect((await alice.tokens())?.access_token).toBe("access-1");
    expect(await bob.tokens()).toBeUndefined();
    expect(await bob.clientInformation()).toBeUndefined();

    // Bob's own flow registers and authorizes separately and never receives Alice's tokens.
    expect(await auth(bob, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    expect((await bob.pendingAuthorizationUrl()) ?? "").toContain("client_id=client-2");
    await connectAccount(bob, server);
    expect((await bob.tokens())?.access_token).not.toBe((await alice.tokens())?.access_token);
    expect((await alice.clientInformation())?.client_id).toBe("client-1");
    expect((await bob.clientInformation())?.client_id).toBe("client-2");

    expect(await store.findOwnerByState("nope")).toBeNull();
  });

  it("saves the rotated refresh token at once, for that user only", async () => {
    const { server, alice, bob } = setup();
    await connectAccount(alice, server);
    await connectAccount(bob, server);
    const bobBefore = await bob.tokens();

    // What the transport does on a 401: auth() refreshes with the stored refresh token.
    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("AUTHORIZED");

    const refresh = server.tokenRequests.at(-1);
    expect(refresh?.get("grant_type")).toBe("refresh_token");
    expect(refresh?.get("refresh_token")).toBe("refresh-1");
    expect(await alice.tokens()).toMatchObject({ access_token: "access-3", refresh_token: "refresh-3" });
    expect(await bob.tokens()).toEqual(bobBefore);

    // The old refresh token is spent; the saved one is the one that works next time.
    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("AUTHORIZED");
    expect(server.tokenRequests.at(-1)?.get("refresh_token")).toBe("refresh-3");
  });

  it("refuses a callback whose state is not the user's pending one", async () => {
    const { server, alice, bob } = setup();
    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    expect(await auth(bob, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    const { code, state } = server.approve((await alice.pendingAuthorizationUrl()) ?? "");

    await expect(
      completeMcpAuthorization({ provider: bob, serverUrl: SERVER_URL, code, state, fetchFn: server.fetch }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(
      completeMcpAuthorization({ provider: alice, serverUrl: SERVER_URL, code, state: null, fetchFn: server.fetch }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await bob.tokens()).toBeUndefined();
    expect(await alice.tokens()).toBeUndefined();

    await completeMcpAuthorization({ provider: alice, serverUrl: SERVER_URL, code, state, fetchFn: server.fetch });
    expect((await alice.tokens())?.access_token).toBe("access-1");
    // Single use: the state, verifier and URL are gone once the flow completed.
    expect(await alice.pendingState()).toBeNull();
    expect(await alice.pendingAuthorizationUrl()).toBeNull();
    await expect(alice.codeVerifier()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("finds the owner of a pending authorization by its state", async () => {
    const { store, server, alice, bob } = setup();
    await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch });
    await auth(bob, { serverUrl: SERVER_URL, fetchFn: server.fetch });
    expect(await store.findOwnerByState((await alice.pendingState()) ?? "")).toEqual(alice.owner);
    expect(await store.findOwnerByState((await bob.pendingState()) ?? "")).toEqual(bob.owner);
  });

  it("stores tokens, registration and verifier sealed, readable only with the instance key", async () => {
    const { store, server, alice } = setup();
    await connectAccount(alice, server);
    await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch });
    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("AUTHORIZED");

    const atRest = JSON.stringify(store.dump());
    for (const secret of ["access-", "refresh-", "client-1"]) expect(atRest).not.toContain(secret);
    const [record] = store.dump();
    expect(record?.sealedTokens).toMatch(/^v1\./);
    expect(record?.sealedClientInformation).toMatch(/^v1\./);

    const otherKey = new McpOAuthProvider({ owner: alice.owner, store, sealer: keySealer(), baseUrl: BASE_URL });
    await expect(otherKey.tokens()).rejects.toThrow(/could not be decrypted/);
  });

  it("forgets only what the server invalidated", async () => {
    const { server, alice } = setup();
    await connectAccount(alice, server);

    await alice.invalidateCredentials("tokens");
    expect(await alice.tokens()).toBeUndefined();
    expect((await alice.clientInformation())?.client_id).toBe("client-1");

    await alice.invalidateCredentials("all");
    expect(await alice.clientInformation()).toBeUndefined();
    expect(await alice.discoveryState()).toBeUndefined();
  });
});

describe("McpOAuthProvider modes", () => {
  it("in the background never starts an authorization, so the URL the user holds stays valid", async () => {
    const { store, sealer, server, alice } = setup();
    expect(await auth(alice, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    const [url, state] = [await alice.pendingAuthorizationUrl(), await alice.pendingState()];

    const background = new McpOAuthProvider({
      owner: alice.owner,
      store,
      sealer,
      baseUrl: BASE_URL,
      mode: "background",
    });
    await expect(auth(background, { serverUrl: SERVER_URL, fetchFn: server.fetch })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await alice.pendingAuthorizationUrl()).toBe(url);
    expect(await alice.pendingState()).toBe(state);
  });

  it("reauthorizes while the stored tokens keep working until the new ones arrive", async () => {
    const { store, sealer, server, alice } = setup();
    await connectAccount(alice, server);
    const reconnect = new McpOAuthProvider({
      owner: alice.owner,
      store,
      sealer,
      baseUrl: BASE_URL,
      mode: "reauthorize",
    });
    expect(await auth(reconnect, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    expect((await alice.tokens())?.access_token).toBe("access-1");

    const { code, state } = server.approve((await reconnect.pendingAuthorizationUrl()) ?? "");
    await completeMcpAuthorization({ provider: reconnect, serverUrl: SERVER_URL, code, state, fetchFn: server.fetch });
    expect((await alice.tokens())?.access_token).toBe("access-2");
  });

  it("registers again for a new authorization when the stored client has another redirect URL", async () => {
    const { store, sealer, server, alice } = setup();
    await connectAccount(alice, server);
    const elsewhere = new McpOAuthProvider({
      owner: alice.owner,
      store,
      sealer,
      baseUrl: "https://chat.example.net",
      mode: "reauthorize",
    });
    expect(await elsewhere.clientInformation()).toBeUndefined();
    expect(await auth(elsewhere, { serverUrl: SERVER_URL, fetchFn: server.fetch })).toBe("REDIRECT");
    expect((await alice.clientInformation())?.client_id).toBe("client-2");
  });
});

describe("ConnectionPool with McpOAuthProvider", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("waits for the user to authorize, then calls tools with that user's token only", async () => {
    const { server, alice, bob } = setup();
    vi.stubGlobal("fetch", server.fetch);
    const providers = new Map([
      ["github:alice", alice],
      ["github:bob", bob],
    ]);
    const pool = new ConnectionPool({ authProvider: (key) => providers.get(key) });
    const config = { kind: "streamable-http" as const, url: SERVER_URL, headers: {} };
    const call = (key: string) =>
      pool.callTool(key, config, "whoami", {}, { signal: new AbortController().signal, timeoutMs: 5_000 });
    try {
      await expect(pool.listTools("github:alice", config)).rejects.toThrow(ToolError);
      expect(pool.health("github:alice")).toBe("needs_authorization");
      const authorizationUrl = (await alice.pendingAuthorizationUrl()) ?? "";
      expect(authorizationUrl).toContain(`${ISSUER}/authorize`);

      // No background reconnects meanwhile: each would start a new flow and void the user's URL.
      const requests = server.mcpRequests;
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(server.mcpRequests).toBe(requests);
      expect(await alice.pendingAuthorizationUrl()).toBe(authorizationUrl);

      const { code, state } = server.approve(authorizationUrl);
      await completeMcpAuthorization({ provider: alice, serverUrl: SERVER_URL, code, state });

      expect((await pool.listTools("github:alice", config)).map((tool) => tool.name)).toEqual(["whoami"]);
      expect((await call("github:alice")).content).toEqual([{ type: "text", text: "client-1" }]);
      await expect(call("github:bob")).rejects.toThrow(/needs the user to authorize/);
      expect(await bob.tokens()).toBeUndefined();
    } finally {
      await pool.closeAll();
    }
  });
});
