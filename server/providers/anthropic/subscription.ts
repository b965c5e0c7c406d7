// Claude Pro / Max sign-in, as Claude Code does it: a PKCE (S256) authorize URL with `code=true` that
// the user opens in a new tab; Anthropic's callback page shows `code#state`, which the user pastes
// back; the code is exchanged (JSON POST) for an access token and a rotating refresh token. Every
// refresh answers a new refresh token, which must be stored every time. Endpoints and client come from
// env (ANTHROPIC_OAUTH_*), so tests point them at the harness server.
import type { Env } from "../../env.ts";
import {
  exchangeAuthorizationCode,
  readRefreshAnswer,
  sendOAuthRequest,
  type TokenSet,
} from "../subscriptions/oauth-http.ts";
import { pkceAuthorizeUrl, type Pkce } from "../subscriptions/pkce.ts";

export type AnthropicOAuthConfig = Pick<
  Env,
  | "ANTHROPIC_OAUTH_CLIENT_ID"
  | "ANTHROPIC_OAUTH_AUTHORIZE_URL"
  | "ANTHROPIC_OAUTH_TOKEN_URL"
  | "ANTHROPIC_OAUTH_REDIRECT_URI"
  | "ANTHROPIC_OAUTH_SCOPES"
>;

const VENDOR = "Anthropic";

export function anthropicAuthorizeUrl(config: AnthropicOAuthConfig, pkce: Pkce, state: string): string {
  const params = {
    code: "true",
    client_id: config.ANTHROPIC_OAUTH_CLIENT_ID,
    response_type: "code",
    redirect_uri: config.ANTHROPIC_OAUTH_REDIRECT_URI,
    scope: config.ANTHROPIC_OAUTH_SCOPES,
  };
  return pkceAuthorizeUrl(config.ANTHROPIC_OAUTH_AUTHORIZE_URL, params, pkce, state);
}

export type AnthropicSignIn = { tokens: TokenSet; identity?: string };

/** Exchanges the pasted code; the caller has already checked the pasted state against its own. */
export async function exchangeAnthropicCode(
  config: AnthropicOAuthConfig,
  input: { code: string; state: string; verifier: string },
  signal?: AbortSignal,
): Promise<AnthropicSignIn> {
  const { tokens, body } = await exchangeAuthorizationCode(
    config.ANTHROPIC_OAUTH_TOKEN_URL,
    {
      encoding: "json",
      fields: {
        code: input.code,
        state: input.state,
        client_id: config.ANTHROPIC_OAUTH_CLIENT_ID,
        redirect_uri: config.ANTHROPIC_OAUTH_REDIRECT_URI,
        code_verifier: input.verifier,
      },
      signal,
    },
    VENDOR,
    { refused: "Anthropic refused the code", advice: "it may be used or expired. Start the sign-in again." },
  );
  const account = body.account as { email_address?: unknown } | undefined;
  const email = typeof account?.email_address === "string" ? account.email_address : undefined;
  return { tokens, ...(email && { identity: email }) };
}

/** One refresh; the answer carries a new refresh token (rotation). */
export async function refreshAnthropicTokens(
  config: AnthropicOAuthConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const answer = await sendOAuthRequest(
    config.ANTHROPIC_OAUTH_TOKEN_URL,
    {
      json: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: config.ANTHROPIC_OAUTH_CLIENT_ID },
      signal,
    },
    VENDOR,
  );
  return readRefreshAnswer(answer, VENDOR);
}
