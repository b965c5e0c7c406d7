// The two code-paste vendors of the harness (Anthropic and Google): an authorize page that checks
// every query parameter (client, redirect, scopes, S256 challenge, state; `code=true` for Anthropic;
// offline access and forced consent for Google), an "Authorize" button, and the page that shows the
// code to paste back (`code#state` for Anthropic, the bare code for Google) — as the vendors'
// callback pages do. Token endpoints: Anthropic takes JSON and rotates refresh tokens; Google takes
// a form with the client secret and keeps its refresh token.
import type { IncomingMessage, ServerResponse } from "node:http";

import { escapeHtml, readBody, sendHtml, sendJson, str } from "./http.ts";
import { type OAuthState, randomToken, s256 } from "./state.ts";
import { issueAccessToken, type Vendor } from "./tokens.ts";
import { ANTHROPIC_SCOPES, CLIENTS, GOOGLE_REQUIRED_SCOPES, USERS } from "./vendors.ts";

export type CodePasteOptions = { redirectUris: Record<"anthropic" | "google", string>; accessTtlMs: () => number };

type PasteVendor = "anthropic" | "google";

function authorizeProblem(vendor: PasteVendor, query: URLSearchParams, options: CodePasteOptions): string | undefined {
  const expect: Record<string, string> = {
    client_id: CLIENTS[vendor].clientId,
    response_type: "code",
    redirect_uri: options.redirectUris[vendor],
    code_challenge_method: "S256",
  };
  if (vendor === "anthropic") Object.assign(expect, { code: "true", scope: ANTHROPIC_SCOPES });
  else Object.assign(expect, { access_type: "offline", prompt: "consent" });
  for (const [name, value] of Object.entries(expect)) {
    if (query.get(name) !== value) return `${name} must be ${value}, got ${query.get(name) ?? "(missing)"}`;
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(query.get("code_challenge") ?? "")) return "code_challenge must be an S256 value";
  const state = query.get("state") ?? "";
  if (state.length < 16) return "state is missing or too short";
  if (vendor === "google") {
    const scopes = (query.get("scope") ?? "").split(" ");
    const missing = GOOGLE_REQUIRED_SCOPES.find((scope) => !scopes.includes(scope));
    if (missing) return `scope must include ${missing}`;
  }
  return undefined;
}

export function handleAuthorize(
  vendor: PasteVendor,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  state: OAuthState,
  options: CodePasteOptions,
) {
  const problem = authorizeProblem(vendor, url.searchParams, options);
  if (problem) return sendHtml(res, 400, "Authorization failed", `<p role="alert">${escapeHtml(problem)}</p>`);
  const title = vendor === "anthropic" ? "Authorize Claude Code" : "Sign in to Gemini CLI";
  if (req.method === "GET") {
    return sendHtml(
      res,
      200,
      title,
      `<p>Signed in as ${escapeHtml(USERS[vendor].email)}.</p>` +
        `<form method="post" action="${escapeHtml(url.pathname + url.search)}"><button type="submit">Authorize</button></form>`,
    );
  }
  const code = randomToken(`${vendor}-code-`);
  const query = url.searchParams;
  state.codes.set(code, {
    vendor,
    clientId: query.get("client_id")!,
    redirectUri: query.get("redirect_uri")!,
    challenge: query.get("code_challenge")!,
    state: query.get("state")!,
    scope: query.get("scope") ?? "",
  });
  const shown = vendor === "anthropic" ? `${code}#${query.get("state")}` : code;
  sendHtml(
    res,
    200,
    "Authentication code",
    `<p>Paste this code into the application:</p><code data-testid="auth-code">${escapeHtml(shown)}</code>`,
  );
}

function tokenAnswer(vendor: Vendor, state: OAuthState, ttlMs: number, refreshToken?: string) {
  return {
    token_type: "Bearer",
    access_token: issueAccessToken(vendor, ttlMs, { sub: USERS[vendor].email }),
    expires_in: Math.round(ttlMs / 1000),
    ...(refreshToken !== undefined && { refresh_token: refreshToken }),
    ...(vendor === "anthropic" && { scope: ANTHROPIC_SCOPES }),
    ...(vendor === "anthropic" && !state.hidesIdentity && { account: { email_address: USERS.anthropic.email } }),
  };
}

/** Checks the code grant; answers an error description or undefined when valid (the code is used up). */
function checkCodeGrant(vendor: PasteVendor, fields: Record<string, unknown>, state: OAuthState, redirectUri: string) {
  const code = str(fields.code) ?? "";
  const grant = state.codes.get(code);
  state.codes.delete(code);
  if (!grant || grant.vendor !== vendor) return "unknown or used code";
  if (str(fields.client_id) !== grant.clientId) return "client_id mismatch";
  if (str(fields.redirect_uri) !== redirectUri || redirectUri !== grant.redirectUri) return "redirect_uri mismatch";
  if (s256(str(fields.code_verifier) ?? "") !== grant.challenge) return "PKCE verification failed";
  if (vendor === "anthropic" && str(fields.state) !== grant.state) return "state mismatch";
  if (vendor === "google" && str(fields.client_secret) !== CLIENTS.google.clientSecret) return "bad client secret";
  return undefined;
}

export async function handleToken(
  vendor: PasteVendor,
  req: IncomingMessage,
  res: ServerResponse,
  state: OAuthState,
  options: CodePasteOptions,
) {
  const body = await readBody(req);
  const wanted = vendor === "anthropic" ? "json" : "form";
  const grantType = str(body.fields.grant_type) ?? "(none)";
  const fail = (status: number, error: string, description: string) => {
    state.record(vendor, grantType, error);
    sendJson(res, status, { error, error_description: description });
  };
  if (body.kind !== wanted) return fail(400, "invalid_request", `the token endpoint takes ${wanted} bodies`);
  if (str(body.fields.client_id) !== CLIENTS[vendor].clientId) return fail(401, "invalid_client", "unknown client");
  if (grantType === "authorization_code") {
    const problem = checkCodeGrant(vendor, body.fields, state, options.redirectUris[vendor]);
    if (problem) return fail(400, "invalid_grant", problem);
    state.record(vendor, grantType, "ok");
    return sendJson(res, 200, tokenAnswer(vendor, state, options.accessTtlMs(), state.newRefreshToken(vendor)));
  }
  if (grantType === "refresh_token") {
    if (vendor === "google" && str(body.fields.client_secret) !== CLIENTS.google.clientSecret) {
      return fail(401, "invalid_client", "bad client secret");
    }
    const grant = state.refreshTokens.get(str(body.fields.refresh_token) ?? "");
    if (!grant || grant.vendor !== vendor || grant.isRevoked)
      return fail(400, "invalid_grant", "refresh token revoked");
    if (grant.isUsed) return fail(400, "invalid_grant", "refresh token already used");
    state.record(vendor, grantType, "ok");
    if (vendor === "google") return sendJson(res, 200, tokenAnswer(vendor, state, options.accessTtlMs()));
    grant.isUsed = true; // Anthropic rotates: the old refresh token is spent
    return sendJson(res, 200, tokenAnswer(vendor, state, options.accessTtlMs(), state.newRefreshToken(vendor)));
  }
  fail(400, "unsupported_grant_type", grantType);
}
