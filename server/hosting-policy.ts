// What "hosted for a team" changes, decided from configuration alone (pure; env.ts applies it):
// - The single-user embedded setup is the local account (no sign-in provider configured) on a
//   loopback HOST. Only there may users' provider endpoints reach private addresses by default
//   (a self-hoster's Ollama on the same machine); with real sign-in they are refused unless
//   PROVIDER_ALLOW_PRIVATE_URLS says otherwise.
// - The local account has no password, so it must not listen beyond loopback: start-up refuses a
//   non-loopback HOST with it unless ALLOW_LOCAL_ACCOUNT_ON_NETWORK is set.
// - Production reached over plain http from other machines still starts, with a warning (cookies and
//   keys in clear): an http AUTH_URL that is not loopback, or no AUTH_URL with a non-loopback HOST.
import { isIP } from "node:net";

export type HostingConfig = {
  NODE_ENV: string;
  HOST: string;
  AUTH_URL?: string;
  AUTH_GITHUB_ID?: string;
  AUTH_GOOGLE_ID?: string;
  AUTH_OIDC_ISSUER?: string;
  ALLOW_LOCAL_ACCOUNT_ON_NETWORK: boolean;
};

/** 127.0.0.0/8, ::1 and localhost: a HOST only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return name === "::1";
}

/** No sign-in provider is configured: the embedded local account is the only way in. */
export function usesLocalAccount(
  config: Pick<HostingConfig, "AUTH_GITHUB_ID" | "AUTH_GOOGLE_ID" | "AUTH_OIDC_ISSUER">,
) {
  return !config.AUTH_GITHUB_ID && !config.AUTH_GOOGLE_ID && !config.AUTH_OIDC_ISSUER;
}

/** The default of PROVIDER_ALLOW_PRIVATE_URLS: true only for the local account on a loopback HOST. */
export function isSingleUserEmbedded(config: HostingConfig): boolean {
  return usesLocalAccount(config) && isLoopbackHost(config.HOST);
}

/** Combinations start-up refuses, as [variable, message] (empty when the configuration is safe). */
export function hostingRefusals(config: HostingConfig): [string, string][] {
  if (usesLocalAccount(config) && !isLoopbackHost(config.HOST) && !config.ALLOW_LOCAL_ACCOUNT_ON_NETWORK) {
    return [
      [
        "HOST",
        `is "${config.HOST}", but no sign-in provider is configured, so anyone who can reach this address would sign in with the password-less local account. Configure a sign-in provider (AUTH_OIDC_*, AUTH_GITHUB_*, AUTH_GOOGLE_*), keep HOST on 127.0.0.1, or set ALLOW_LOCAL_ACCOUNT_ON_NETWORK=true if the network is yours alone`,
      ],
    ];
  }
  return [];
}

/** Risky but allowed combinations, one sentence each, logged at start-up. */
export function hostingWarnings(config: HostingConfig): string[] {
  if (config.NODE_ENV !== "production") return [];
  if (config.AUTH_URL) {
    const url = new URL(config.AUTH_URL);
    if (url.protocol === "https:" || isLoopbackHost(url.hostname)) return [];
    return [
      `AUTH_URL is ${config.AUTH_URL}: without https, sign-in cookies and API keys cross the network in clear. Serve Patchbay behind TLS and set an https:// AUTH_URL.`,
    ];
  }
  if (isLoopbackHost(config.HOST)) return [];
  return [
    `HOST is ${config.HOST} and AUTH_URL is not set: people reach Patchbay over plain http, so sign-in cookies and API keys cross the network in clear. Serve it behind TLS and set an https:// AUTH_URL.`,
  ];
}
