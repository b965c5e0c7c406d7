// Which sign-in providers this instance offers, decided from env alone: GitHub, Google and one
// generic OIDC issuer, each only when configured. When none is configured Patchbay falls back to
// its embedded local identity (see local-identity.ts); when any is, the local identity is off.
import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";

import type { Env } from "../env.ts";

export type SignInProvider = { id: string; name: string };

export const LOCAL_PROVIDER_ID = "local";

type ProviderEnv = Pick<
  Env,
  | "AUTH_GITHUB_ID"
  | "AUTH_GITHUB_SECRET"
  | "AUTH_GOOGLE_ID"
  | "AUTH_GOOGLE_SECRET"
  | "AUTH_OIDC_ISSUER"
  | "AUTH_OIDC_ID"
  | "AUTH_OIDC_SECRET"
  | "AUTH_OIDC_NAME"
>;

/** The external providers configured in env, as Auth.js provider objects. */
export function buildExternalProviders(config: ProviderEnv): Provider[] {
  const providers: Provider[] = [];
  if (config.AUTH_GITHUB_ID && config.AUTH_GITHUB_SECRET) {
    providers.push(GitHub({ clientId: config.AUTH_GITHUB_ID, clientSecret: config.AUTH_GITHUB_SECRET }));
  }
  if (config.AUTH_GOOGLE_ID && config.AUTH_GOOGLE_SECRET) {
    providers.push(Google({ clientId: config.AUTH_GOOGLE_ID, clientSecret: config.AUTH_GOOGLE_SECRET }));
  }
  if (config.AUTH_OIDC_ISSUER && config.AUTH_OIDC_ID && config.AUTH_OIDC_SECRET) {
    providers.push({
      id: "oidc",
      name: config.AUTH_OIDC_NAME,
      type: "oidc",
      issuer: config.AUTH_OIDC_ISSUER,
      clientId: config.AUTH_OIDC_ID,
      clientSecret: config.AUTH_OIDC_SECRET,
      checks: ["pkce", "state", "nonce"],
    });
  }
  return providers;
}

/** True when no external provider is configured, so the embedded local identity is used. */
export function isLocalIdentityEnabled(config: ProviderEnv): boolean {
  return buildExternalProviders(config).length === 0;
}

/** The buttons the sign-in page shows, in order. */
export function listSignInProviders(config: ProviderEnv): SignInProvider[] {
  if (isLocalIdentityEnabled(config)) return [{ id: LOCAL_PROVIDER_ID, name: "Local account" }];
  return buildExternalProviders(config).map((provider) => {
    const resolved = typeof provider === "function" ? provider() : provider;
    return { id: resolved.id, name: resolved.name };
  });
}
