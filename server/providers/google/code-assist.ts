// Gemini sign-in with a personal Google account, as the Gemini CLI's user-code flow does it: a PKCE
// (S256) authorize URL with offline access and forced consent (so Google always answers a refresh
// token), opened in a new tab; Google's code page shows a code the user pastes back; the code is
// exchanged with the CLI's installed-app client secret. The email comes from the userinfo endpoint.
// Google does not rotate refresh tokens; a refresh answer without one keeps the stored one.
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import {
  exchangeAuthorizationCode,
  readRefreshAnswer,
  sendOAuthRequest,
  type TokenSet,
} from "../subscriptions/oauth-http.ts";
import { pkceAuthorizeUrl, type Pkce } from "../subscriptions/pkce.ts";

export type GoogleOAuthConfig = Pick<
  Env,
  | "GOOGLE_OAUTH_CLIENT_ID"
  | "GOOGLE_OAUTH_CLIENT_SECRET"
  | "GOOGLE_OAUTH_AUTHORIZE_URL"
  | "GOOGLE_OAUTH_TOKEN_URL"
  | "GOOGLE_OAUTH_USERINFO_URL"
  | "GOOGLE_OAUTH_REDIRECT_URI"
>;

const VENDOR = "Google";
export const GOOGLE_SCOPES = [
  "https://www.googleapis.com/auth/cloud-platform",
  "https://www.googleapis.com/auth/userinfo.email",
  "https://www.googleapis.com/auth/userinfo.profile",
];

export function googleAuthorizeUrl(config: GoogleOAuthConfig, pkce: Pkce, state: string): string {
  const params = {
    client_id: config.GOOGLE_OAUTH_CLIENT_ID,
    redirect_uri: config.GOOGLE_OAUTH_REDIRECT_URI,
    response_type: "code",
    scope: GOOGLE_SCOPES.join(" "),
    access_type: "offline",
    prompt: "consent",
  };
  return pkceAuthorizeUrl(config.GOOGLE_OAUTH_AUTHORIZE_URL, params, pkce, state);
}

export type GoogleSignIn = { tokens: TokenSet; identity?: string };

export async function exchangeGoogleCode(
  config: GoogleOAuthConfig,
  input: { code: string; verifier: string },
  signal?: AbortSignal,
): Promise<GoogleSignIn> {
  const { tokens } = await exchangeAuthorizationCode(
    config.GOOGLE_OAUTH_TOKEN_URL,
    {
      encoding: "form",
      fields: {
        code: input.code,
        redirect_uri: config.GOOGLE_OAUTH_REDIRECT_URI,
        client_id: config.GOOGLE_OAUTH_CLIENT_ID,
        client_secret: config.GOOGLE_OAUTH_CLIENT_SECRET,
        code_verifier: input.verifier,
      },
      signal,
    },
    VENDOR,
    { refused: "Google refused the code", advice: "it may be used or expired. Start the sign-in again." },
  );
  if (!tokens.refreshToken) {
    throw new AppError("bad_request:provider", "Google did not grant offline access; start the sign-in again.");
  }
  return { tokens, ...(await readEmail(config, tokens.accessToken, signal)) };
}

async function readEmail(config: GoogleOAuthConfig, accessToken: string, signal?: AbortSignal) {
  const answer = await sendOAuthRequest(
    config.GOOGLE_OAUTH_USERINFO_URL,
    { method: "GET", headers: { authorization: `Bearer ${accessToken}` }, signal },
    VENDOR,
  );
  const email = answer.status === 200 ? answer.body.email : undefined;
  return typeof email === "string" && email !== "" ? { identity: email } : {};
}

export async function refreshGoogleTokens(
  config: GoogleOAuthConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const answer = await sendOAuthRequest(
    config.GOOGLE_OAUTH_TOKEN_URL,
    {
      form: {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: config.GOOGLE_OAUTH_CLIENT_ID,
        client_secret: config.GOOGLE_OAUTH_CLIENT_SECRET,
      },
      signal,
    },
    VENDOR,
  );
  return readRefreshAnswer(answer, VENDOR);
}
