// A real OpenID Connect issuer (oidc-provider v9) that listens only on loopback.
// Patchbay starts it as the default identity when no external OAuth provider is
// configured (one account), and the e2e suite starts it as a stand-in "external"
// OIDC provider (several accounts). Auth.js talks to it with authorization code + PKCE.
// Invariants: binds to a loopback host or throws; keys, cookie keys and all state live
// in memory for one start and nothing touches disk; every authorization request needs
// PKCE (S256); the sign-in page lists the accounts and consent is granted for exactly
// what the client asked; close() releases the port and leaves no timers behind.

import { generateKeyPair, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIPv4 } from "node:net";
import { promisify } from "node:util";
import Provider, {
  errors,
  type ClientMetadata,
  type Configuration,
  type InteractionResults,
  type JWK,
} from "oidc-provider";

import { createMemoryAdapter } from "./memory-adapter.ts";

export type LocalAccount = { id: string; email: string; name: string };
export type LocalClient = { clientId: string; clientSecret: string; redirectUris: string[] };
export type LocalIssuerOptions = {
  host?: string;
  port?: number;
  accounts: LocalAccount[];
  clients: LocalClient[];
  title?: string;
};
export type LocalIssuer = { issuer: string; close(): Promise<void> };

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;
type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
type IssuerContext = { provider: Provider; accounts: LocalAccount[]; title: string };

const DEFAULT_TITLE = "Patchbay local sign-in";
const INTERACTION_PATH = "/interaction/";
const MAX_FORM_BYTES = 8 * 1024;
const PAGE_STYLE = [
  "body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f4f4f5}",
  "main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0003;min-width:18rem}",
  "h1{font-size:1.25rem;margin:0 0 1rem}form{display:grid;gap:.5rem}",
  "button{padding:.6rem 1rem;font-size:1rem;border:0;border-radius:6px;background:#2563eb;color:#fff;cursor:pointer}",
  "button.cancel{background:#e4e4e7;color:#18181b}",
].join("");

export async function startLocalIssuer(options: LocalIssuerOptions): Promise<LocalIssuer> {
  const host = options.host ?? "127.0.0.1";
  assertLoopbackHost(host);
  assertAccounts(options.accounts);
  const jwk = await generateSigningKey();
  let handle: RequestHandler | undefined;
  const server = createServer((req, res) => (handle ? handle(req, res) : res.writeHead(503).end()));
  const port = await listen(server, host, options.port ?? 0);
  const issuer = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  try {
    handle = createRequestHandler(new Provider(issuer, buildConfiguration(options, jwk, port)), options);
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  return { issuer, close: () => closeServer(server) };
}

function createRequestHandler(provider: Provider, options: LocalIssuerOptions): RequestHandler {
  const context: IssuerContext = { provider, accounts: options.accounts, title: options.title ?? DEFAULT_TITLE };
  const providerCallback = provider.callback();
  return (req, res) => {
    if (req.url?.startsWith(INTERACTION_PATH)) void handleInteraction(context, req, res);
    else void providerCallback(req, res);
  };
}

function assertLoopbackHost(host: string): void {
  const isLoopback = host === "localhost" || host === "::1" || (isIPv4(host) && host.startsWith("127."));
  if (!isLoopback) {
    throw new Error(`local issuer refuses host "${host}": only loopback (127.x.x.x, ::1, localhost) is allowed`);
  }
}

function assertAccounts(accounts: LocalAccount[]): void {
  if (accounts.length === 0) throw new Error("local issuer needs at least one account");
  const ids = new Set(accounts.map((account) => account.id));
  if (ids.size !== accounts.length) throw new Error("local issuer account ids must be unique");
}

async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      if (address && typeof address === "object") resolve(address.port);
      else reject(new Error("local issuer could not determine its port"));
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

function buildConfiguration(options: LocalIssuerOptions, jwk: JWK, port: number): Configuration {
  const accounts = new Map(options.accounts.map((account) => [account.id, account]));
  // Cookies are scoped by host, not port: suffix the port so two issuers on 127.0.0.1 never clash.
  const cookiePrefix = `_patchbay_op_${port}`;
  return {
    adapter: createMemoryAdapter(),
    jwks: { keys: [jwk] },
    clients: options.clients.map(toClientMetadata),
    clientAuthMethods: ["client_secret_basic", "client_secret_post"],
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: ["openid"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const claims = { sub, email: account.email, email_verified: true, name: account.name };
      return { accountId: sub, claims: () => claims };
    },
    cookies: {
      keys: [randomBytes(32).toString("base64url")],
      names: {
        session: `${cookiePrefix}_session`,
        interaction: `${cookiePrefix}_interaction`,
        resume: `${cookiePrefix}_resume`,
      },
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    clientBasedCORS: () => false,
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = renderPage(
        "Sign-in error",
        `<h1>Sign-in error</h1><p>${escapeHtml(out.error_description ?? out.error)}</p>`,
      );
    },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 86_400, Grant: 86_400 },
  };
}

function toClientMetadata(client: LocalClient): ClientMetadata {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uris: client.redirectUris,
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
  };
}

async function handleInteraction(context: IssuerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await context.provider.interactionDetails(req, res);
    const uid = new URL(req.url ?? "/", "http://local").pathname.slice(INTERACTION_PATH.length);
    if (details.uid !== uid) return sendText(res, 400, "This sign-in link does not match the current attempt.");
    if (details.prompt.name === "consent") {
      return await finish(context, req, res, await grantRequestedAccess(context, details));
    }
    if (details.prompt.name !== "login") return sendText(res, 400, "Unsupported sign-in step.");
    if (req.method === "GET") return sendHtml(res, renderSignIn(context, details.uid));
    if (req.method === "POST") return await submitSignIn(context, req, res);
    sendText(res, 405, "Method not allowed.");
  } catch (error) {
    if (res.headersSent) return void res.end();
    const isExpired = error instanceof errors.SessionNotFound;
    sendText(res, isExpired ? 400 : 500, isExpired ? "This sign-in attempt expired. Start again." : "Sign-in failed.");
  }
}

async function submitSignIn(context: IssuerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await readForm(req);
  if (form.has("cancel")) {
    const denied = { error: "access_denied", error_description: "End-User aborted interaction" };
    return finish(context, req, res, denied);
  }
  const account = context.accounts.find((candidate) => candidate.id === form.get("account"));
  if (!account) return sendText(res, 400, "Unknown account.");
  return finish(context, req, res, { login: { accountId: account.id, remember: false } });
}

// Grants exactly the scopes, claims and resource scopes the provider reports as missing;
// the provider already limited the request to what this issuer supports (openid email profile).
async function grantRequestedAccess(context: IssuerContext, details: Interaction): Promise<InteractionResults> {
  const { Grant } = context.provider;
  const accountId = details.session?.accountId;
  const clientId = details.params.client_id;
  if (!accountId || typeof clientId !== "string") throw new Error("consent without a signed-in session");
  const existing = details.grantId ? await Grant.find(details.grantId) : undefined;
  const grant = existing ?? new Grant({ accountId, clientId });
  const missing = details.prompt.details;
  const scopes = stringList(missing.missingOIDCScope);
  if (scopes.length > 0) grant.addOIDCScope(scopes);
  const claims = stringList(missing.missingOIDCClaims);
  if (claims.length > 0) grant.addOIDCClaims(claims);
  const resourceScopes = isRecord(missing.missingResourceScopes) ? missing.missingResourceScopes : {};
  for (const [resource, scope] of Object.entries(resourceScopes)) grant.addResourceScope(resource, stringList(scope));
  return { consent: { grantId: await grant.save() } };
}

function finish(context: IssuerContext, req: IncomingMessage, res: ServerResponse, result: InteractionResults) {
  return context.provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_FORM_BYTES) throw new Error("sign-in form too large");
  }
  return new URLSearchParams(body);
}

function renderSignIn(context: IssuerContext, uid: string): string {
  const buttons = context.accounts.map((account) => {
    const value = escapeHtml(account.id);
    return `<button type="submit" name="account" value="${value}">Continue as ${escapeHtml(account.name)}</button>`;
  });
  const cancel = `<button type="submit" name="cancel" value="1" class="cancel">Cancel</button>`;
  const action = escapeHtml(`${INTERACTION_PATH}${encodeURIComponent(uid)}`);
  const form = `<form method="post" action="${action}">${buttons.join("")}${cancel}</form>`;
  return renderPage(context.title, `<h1>${escapeHtml(context.title)}</h1>${form}`);
}

function renderPage(title: string, body: string): string {
  const head = [
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style>`,
  ].join("");
  return `<!doctype html><html lang="en"><head>${head}</head><body><main>${body}</main></body></html>`;
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
  });
  res.end(html);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(text);
}

function escapeHtml(value: string): string {
  const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return value.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
