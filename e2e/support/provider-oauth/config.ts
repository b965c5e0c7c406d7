// Where the harness OAuth server listens in e2e runs, and the Patchbay env that points the
// subscription flows at it (sign-in) and at the fake provider (model requests, Code Assist).
import { PROVIDER_OAUTH_PORT } from "../config.ts";
import { CODEX_INSTRUCTIONS_DIR } from "../fake-provider/subscriptions.ts";

export { PROVIDER_OAUTH_PORT };
export const PROVIDER_OAUTH_URL = `http://127.0.0.1:${PROVIDER_OAUTH_PORT}`;

/** The OAuth endpoint overrides for a harness OAuth server at `url` (and the harness' Codex prompts). */
export function oauthEnvFor(url: string): Record<string, string> {
  return {
    ANTHROPIC_OAUTH_AUTHORIZE_URL: `${url}/anthropic/oauth/authorize`,
    ANTHROPIC_OAUTH_TOKEN_URL: `${url}/anthropic/v1/oauth/token`,
    ANTHROPIC_OAUTH_REDIRECT_URI: `${url}/anthropic/oauth/code/callback`,
    OPENAI_OAUTH_ISSUER: `${url}/openai`,
    GOOGLE_OAUTH_AUTHORIZE_URL: `${url}/google/o/oauth2/v2/auth`,
    GOOGLE_OAUTH_TOKEN_URL: `${url}/google/token`,
    GOOGLE_OAUTH_USERINFO_URL: `${url}/google/userinfo`,
    GOOGLE_OAUTH_REDIRECT_URI: `${url}/google/authcode`,
    CHATGPT_INSTRUCTIONS_DIR: CODEX_INSTRUCTIONS_DIR,
  };
}

/** Every subscription flow on, signing in at the harness and calling the fake provider. */
export function subscriptionAppEnv(fakeProviderUrl: string): Record<string, string> {
  return {
    PROVIDER_SUBSCRIPTIONS: "anthropic,openai,google",
    ...oauthEnvFor(PROVIDER_OAUTH_URL),
    ANTHROPIC_SUBSCRIPTION_BASE_URL: `${fakeProviderUrl}/anthropic/v1`,
    CHATGPT_BASE_URL: `${fakeProviderUrl}/chatgpt/backend-api/codex`,
    CODE_ASSIST_BASE_URL: `${fakeProviderUrl}/code-assist`,
  };
}
