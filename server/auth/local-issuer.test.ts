// Drives the local OIDC issuer over real HTTP the way Auth.js does: discovery, an
// authorization request with PKCE (S256) + state + nonce, the sign-in page, the code
// exchange with client_secret_basic, and userinfo. No mocks; a tiny cookie jar stands in
// for the browser.

import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "./local-issuer.ts";

const ACCOUNT = { id: "alice", email: "alice@example.test", name: "Alice <Example>" };
const CLIENT = {
  clientId: "patchbay",
  clientSecret: randomBytes(24).toString("base64url"),
  redirectUris: ["http://127.0.0.1:3999/api/auth/callback/local"],
};
const REDIRECT_URI = CLIENT.redirectUris[0] ?? "";

type Discovery = Record<string, unknown> & {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
};
type Authorization = { verifier: string; state: string; nonce: string };

class CookieJar {
  private cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
      const expires = attributes.find((a) => a.toLowerCase().startsWith("expires="))?.slice(8);
      const isExpired = value === "" || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (isExpired) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { value, path });
    }
  }

  headerFor(url: URL): string {
    return [...this.cookies]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([key, cookie]) => `${key.slice(0, key.indexOf(";"))}=${cookie.value}`)
      .join("; ");
  }
}

function base64url(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

async function send(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.headerFor(url);
  if (cookie) headers.set("cookie", cookie);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

// Follows redirects like a browser until a non-redirect response or the client's redirect_uri.
async function follow(jar: CookieJar, response: Response, base: URL): Promise<Response | URL> {
  let current = response;
  for (let hops = 0; hops < 10; hops += 1) {
    const location = current.headers.get("location");
    if (current.status < 300 || current.status >= 400 || !location) return current;
    const next = new URL(location, base);
    if (next.href.startsWith(REDIRECT_URI)) return next;
    current = await send(jar, next);
    base = next;
  }
  throw new Error("too many redirects");
}

async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  expect(response.status).toBe(200);
  return (await response.json()) as Discovery;
}

async function openSignInPage(jar: CookieJar, discovery: Discovery, auth: Authorization) {
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid email profile",
    state: auth.state,
    nonce: auth.nonce,
    code_challenge: createHash("sha256").update(auth.verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const page = await follow(jar, await send(jar, url), url);
  if (page instanceof URL) throw new Error(`expected the sign-in page, got redirect to ${page.href}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error("sign-in page has no form");
  return { html, formUrl: new URL(action.replaceAll("&amp;", "&"), discovery.issuer) };
}

async function submit(jar: CookieJar, formUrl: URL, fields: Record<string, string>): Promise<URL> {
  const response = await send(jar, formUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const result = await follow(jar, response, formUrl);
  if (!(result instanceof URL)) throw new Error(`expected a redirect to the client, got ${result.status}`);
  return result;
}

async function signIn(discovery: Discovery, auth: Authorization): Promise<string> {
  const jar = new CookieJar();
  const { formUrl } = await openSignInPage(jar, discovery, auth);
  const callback = await submit(jar, formUrl, { account: ACCOUNT.id });
  expect(callback.searchParams.get("state")).toBe(auth.state);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code in callback: ${callback.search}`);
  return code;
}

function exchangeCode(discovery: Discovery, code: string, verifier: string): Promise<Response> {
  const basic = Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64");
  return fetch(discovery.token_endpoint, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
}

async function verifyIdToken(discovery: Discovery, idToken: string): Promise<Record<string, unknown>> {
  const [header = "", payload = "", signature = ""] = idToken.split(".");
  const { kid, alg } = JSON.parse(Buffer.from(header, "base64url").toString()) as { kid: string; alg: string };
  expect(alg).toBe("RS256");
  const { keys } = (await (await fetch(discovery.jwks_uri)).json()) as { keys: Array<{ kid: string }> };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error("id_token kid not in jwks");
  const key = createPublicKey({ key: jwk, format: "jwk" });
  const isValid = verify("sha256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"));
  expect(isValid).toBe(true);
  return JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
}

function newAuthorization(): Authorization {
  return { verifier: base64url(32), state: base64url(16), nonce: base64url(16) };
}

describe("startLocalIssuer", () => {
  let issuer: LocalIssuer;
  let discovery: Discovery;

  beforeAll(async () => {
    issuer = await startLocalIssuer({ accounts: [ACCOUNT], clients: [CLIENT] });
    discovery = await discover(issuer.issuer);
  });

  afterAll(async () => {
    await issuer?.close();
  });

  it("publishes discovery for its loopback issuer URL", () => {
    expect(issuer.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(discovery.issuer).toBe(issuer.issuer);
    expect(discovery.code_challenge_methods_supported).toEqual(["S256"]);
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["client_secret_basic", "client_secret_post"]),
    );
  });

  it("signs in through the real authorization code + PKCE flow", async () => {
    const auth = newAuthorization();
    const jar = new CookieJar();
    const { html, formUrl } = await openSignInPage(jar, discovery, auth);
    expect(html).toContain("<title>Patchbay local sign-in</title>");
    expect(html).toContain("Continue as Alice &lt;Example&gt;");
    expect(html).not.toContain("<Example>");

    const callback = await submit(jar, formUrl, { account: ACCOUNT.id });
    expect(callback.searchParams.get("state")).toBe(auth.state);
    expect(callback.searchParams.get("iss")).toBe(issuer.issuer);
    const code = callback.searchParams.get("code") ?? "";

    const tokenResponse = await exchangeCode(discovery, code, auth.verifier);
    expect(tokenResponse.status).toBe(200);
    const tokens = (await tokenResponse.json()) as { id_token: string; access_token: string; token_type: string };
    expect(tokens.token_type).toBe("Bearer");

    const claims = await verifyIdToken(discovery, tokens.id_token);
    expect(claims).toMatchObject({
      iss: issuer.issuer,
      aud: CLIENT.clientId,
      sub: ACCOUNT.id,
      email: ACCOUNT.email,
      email_verified: true,
      name: ACCOUNT.name,
      nonce: auth.nonce,
    });

    const userinfo = await fetch(discovery.userinfo_endpoint, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({
      sub: ACCOUNT.id,
      email: ACCOUNT.email,
      email_verified: true,
      name: ACCOUNT.name,
    });
  });

  it("rejects a code exchanged with the wrong code_verifier", async () => {
    const auth = newAuthorization();
    const code = await signIn(discovery, auth);
    const response = await exchangeCode(discovery, code, base64url(32));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("returns access_denied with the state when the user cancels", async () => {
    const auth = newAuthorization();
    const jar = new CookieJar();
    const { formUrl } = await openSignInPage(jar, discovery, auth);
    const callback = await submit(jar, formUrl, { cancel: "1" });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(auth.state);
    expect(callback.searchParams.has("code")).toBe(false);
  });

  it("refuses an authorization request without PKCE", async () => {
    const url = new URL(discovery.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "openid",
      state: "s",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    const location = new URL(response.headers.get("location") ?? "", issuer.issuer);
    expect(location.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });
});

describe("startLocalIssuer host guard", () => {
  it.each(["0.0.0.0", "192.168.1.10", "example.com", "127.0.0.1.nip.io", "::"])("refuses %s", async (host) => {
    await expect(startLocalIssuer({ host, accounts: [ACCOUNT], clients: [CLIENT] })).rejects.toThrow(/loopback/);
  });
});
