// A real OAuth-protected MCP server for tests, built from the SDK's server pieces: protected-resource
// metadata (RFC 9728), authorization-server metadata (RFC 8414), dynamic client registration, a
// PKCE authorization endpoint with a consent page where the "user" types an account name, a token
// endpoint that rotates refresh tokens (a spent refresh token is refused with invalid_grant), and a
// Streamable HTTP MCP endpoint behind bearer auth. Every MCP request is served by a fresh stateless
// server that knows the caller only from the token, so `whoami` reports whose token was used and
// notes are kept per account. Everything lives in memory; `expireAccessTokens()` lets a test force
// the client to refresh.
import { randomBytes } from "node:crypto";
import { type Server } from "node:http";
import { type AddressInfo } from "node:net";

import { type AuthorizationParams, type OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { type AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type OAuthClientInformationFull, type OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import express, { type Response } from "express";
import { z } from "zod";

export type OAuthMcpServer = {
  /** The MCP endpoint (what a connector's URL is). */
  url: string;
  origin: string;
  /** Counts of what the authorization server did. */
  stats: { registrations: number; authorizations: number; refreshes: number; refusedRefreshes: number };
  /** Makes every access token issued so far expired: the next MCP request gets 401. */
  expireAccessTokens(): void;
  /** The live (unspent) refresh tokens of an account. */
  liveRefreshTokens(subject: string): string[];
  close(): Promise<void>;
};

type Grant = { clientId: string; subject: string; resource: string };
type PendingConsent = { client: OAuthClientInformationFull; params: AuthorizationParams };

const ACCESS_TOKEN_SECONDS = 3600;
const token = (prefix: string) => `${prefix}_${randomBytes(16).toString("base64url")}`;

export async function startOAuthMcpServer(options: { port?: number; host?: string } = {}): Promise<OAuthMcpServer> {
  const host = options.host ?? "127.0.0.1";
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, host, () => resolve(listening));
  });
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  const mcpUrl = `${origin}/mcp`;

  const clients = new Map<string, OAuthClientInformationFull>();
  const consents = new Map<string, PendingConsent>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const notes = new Map<string, string[]>();
  const stats = { registrations: 0, authorizations: 0, refreshes: 0, refusedRefreshes: 0 };

  const issue = (grant: Grant): OAuthTokens => {
    const access = token("at");
    const refresh = token("rt");
    accessTokens.set(access, { ...grant, expiresAt: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS });
    refreshTokens.set(refresh, grant);
    return { access_token: access, refresh_token: refresh, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS };
  };

  const provider: OAuthServerProvider = {
    clientsStore: {
      getClient: (clientId) => clients.get(clientId),
      registerClient: (metadata) => {
        const client = { ...metadata, client_id: token("client"), client_id_issued_at: Math.floor(Date.now() / 1000) };
        clients.set(client.client_id, client);
        stats.registrations += 1;
        return client;
      },
    },
    authorize: (client, params, res) => {
      const id = token("consent");
      consents.set(id, { client, params });
      res.type("html").send(consentPage(id, client.client_name ?? client.client_id));
      return Promise.resolve();
    },
    challengeForAuthorizationCode: (_client, code) => {
      const pending = codes.get(code);
      if (!pending) throw new InvalidGrantError("Unknown authorization code.");
      return Promise.resolve(pending.challenge);
    },
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) => {
      const pending = codes.get(code);
      codes.delete(code);
      if (!pending || pending.clientId !== client.client_id) throw new InvalidGrantError("Unknown authorization code.");
      if (redirectUri !== pending.redirectUri) throw new InvalidGrantError("redirect_uri does not match.");
      if (resource && resource.href !== new URL(pending.resource).href) throw new InvalidGrantError("Wrong resource.");
      return Promise.resolve(issue(pending));
    },
    exchangeRefreshToken: (client, refreshToken) => {
      const grant = refreshTokens.get(refreshToken);
      if (!grant || grant.clientId !== client.client_id) {
        stats.refusedRefreshes += 1;
        throw new InvalidGrantError("The refresh token is not valid (spent or unknown).");
      }
      refreshTokens.delete(refreshToken); // rotation: each refresh token works once
      stats.refreshes += 1;
      return Promise.resolve(issue(grant));
    },
    verifyAccessToken: (accessToken): Promise<AuthInfo> => {
      const grant = accessTokens.get(accessToken);
      if (!grant) throw new InvalidTokenError("Unknown access token.");
      return Promise.resolve({
        token: accessToken,
        clientId: grant.clientId,
        scopes: [],
        expiresAt: grant.expiresAt,
        resource: new URL(grant.resource),
        extra: { subject: grant.subject },
      });
    },
  };

  const noRateLimit = { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(origin),
      resourceServerUrl: new URL(mcpUrl),
      resourceName: "Patchbay OAuth test server",
      authorizationOptions: noRateLimit,
      clientRegistrationOptions: noRateLimit,
      tokenOptions: noRateLimit,
      revocationOptions: noRateLimit,
    }),
  );

  app.post("/consent", express.urlencoded({ extended: false }), (req, res) => {
    const form = z.object({ consent: z.string(), account: z.string().trim().default(""), decision: z.string() });
    const parsed = form.safeParse(req.body);
    const pending = parsed.success ? consents.get(parsed.data.consent) : undefined;
    if (!parsed.success || !pending) {
      res.status(400).type("text").send("Unknown or spent consent request.");
      return;
    }
    consents.delete(parsed.data.consent);
    const { params, client } = pending;
    const target = new URL(params.redirectUri);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    if (parsed.data.decision !== "allow" || !parsed.data.account) {
      target.searchParams.set("error", "access_denied");
    } else {
      const code = token("code");
      const resource = params.resource?.href ?? mcpUrl;
      codes.set(code, {
        clientId: client.client_id,
        subject: parsed.data.account,
        resource,
        challenge: params.codeChallenge,
        redirectUri: params.redirectUri,
      });
      stats.authorizations += 1;
      target.searchParams.set("code", code);
    }
    res.redirect(302, target.toString());
  });

  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)),
    expectedResource: new URL(mcpUrl),
  });
  app.all("/mcp", bearer, express.json(), (req, res) => {
    serveMcp(req.auth, notes, req, res).catch(() => {
      if (!res.headersSent) res.status(500).end();
    });
  });

  return {
    url: mcpUrl,
    origin,
    stats,
    expireAccessTokens: () => {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    liveRefreshTokens: (subject) =>
      [...refreshTokens.entries()].filter(([, grant]) => grant.subject === subject).map(([value]) => value),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One stateless MCP exchange: the tools see the caller only through the verified token. */
async function serveMcp(
  auth: AuthInfo | undefined,
  notes: Map<string, string[]>,
  req: express.Request,
  res: Response,
): Promise<void> {
  const subject = typeof auth?.extra?.subject === "string" ? auth.extra.subject : "";
  const mcp = new McpServer({ name: "oauth-notes", version: "1.0.0" });
  mcp.registerTool("whoami", { description: "Says which account the access token belongs to." }, () => ({
    content: [{ type: "text", text: `signed in as ${subject}` }],
  }));
  mcp.registerTool(
    "add_note",
    { description: "Keeps a note in the caller's own notebook.", inputSchema: { text: z.string() } },
    ({ text }) => {
      const list = notes.get(subject) ?? [];
      list.push(text);
      notes.set(subject, list);
      return { content: [{ type: "text", text: `${subject} has ${list.length} note(s)` }] };
    },
  );
  mcp.registerTool("list_notes", { description: "Lists the caller's own notes." }, () => ({
    content: [{ type: "text", text: JSON.stringify({ account: subject, notes: notes.get(subject) ?? [] }) }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void transport.close().then(() => mcp.close()));
  await mcp.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

function consentPage(consentId: string, clientName: string): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize ${escape(clientName)}</title></head>
<body><main>
<h1>Authorize ${escape(clientName)}</h1>
<p>${escape(clientName)} wants to use your notes on this server.</p>
<form method="post" action="/consent">
<input type="hidden" name="consent" value="${escape(consentId)}">
<label for="account">Account name</label>
<input id="account" name="account" autocomplete="username" required>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>
</main></body></html>`;
}
