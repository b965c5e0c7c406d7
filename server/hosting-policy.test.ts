// Hosting for a team: which setups count as single-user, what start-up refuses (through parseEnv,
// with the variable named) and what it only warns about.
import { describe, expect, it } from "vitest";

import { isEnvError, parseEnv } from "./env.ts";
import { hostingWarnings, isLoopbackHost } from "./hosting-policy.ts";

const OIDC = { AUTH_OIDC_ISSUER: "https://sso.example.com", AUTH_OIDC_ID: "patchbay", AUTH_OIDC_SECRET: "s3cret" };

function envError(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    if (isEnvError(error)) return error.message;
    throw error;
  }
  throw new Error("parseEnv accepted the configuration");
}

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]", "app.localhost"])(
    "%s is loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each(["0.0.0.0", "::", "192.168.1.10", "10.0.0.2", "chat.example.com", "128.0.0.1"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("PROVIDER_ALLOW_PRIVATE_URLS default", () => {
  it("allows private endpoints for the local account on loopback", () => {
    expect(parseEnv({}).PROVIDER_ALLOW_PRIVATE_URLS).toBe(true);
    expect(parseEnv({ HOST: "localhost" }).PROVIDER_ALLOW_PRIVATE_URLS).toBe(true);
  });
  it("refuses them as soon as a sign-in provider is configured, on any HOST", () => {
    expect(parseEnv(OIDC).PROVIDER_ALLOW_PRIVATE_URLS).toBe(false);
    expect(parseEnv({ ...OIDC, HOST: "0.0.0.0" }).PROVIDER_ALLOW_PRIVATE_URLS).toBe(false);
    expect(parseEnv({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s" }).PROVIDER_ALLOW_PRIVATE_URLS).toBe(false);
  });
  it("refuses them for the local account exposed on the network", () => {
    const exposed = parseEnv({ HOST: "0.0.0.0", ALLOW_LOCAL_ACCOUNT_ON_NETWORK: "true" });
    expect(exposed.PROVIDER_ALLOW_PRIVATE_URLS).toBe(false);
  });
  it("follows the operator when set, either way", () => {
    expect(parseEnv({ ...OIDC, PROVIDER_ALLOW_PRIVATE_URLS: "true" }).PROVIDER_ALLOW_PRIVATE_URLS).toBe(true);
    expect(parseEnv({ PROVIDER_ALLOW_PRIVATE_URLS: "false" }).PROVIDER_ALLOW_PRIVATE_URLS).toBe(false);
  });
});

describe("start-up refusals", () => {
  it("refuses the local account on a non-loopback HOST, naming HOST and the way out", () => {
    const message = envError({ HOST: "0.0.0.0" });
    expect(message).toMatch(/^Invalid Patchbay configuration:\n {2}- HOST: is "0\.0\.0\.0", but no sign-in provider/);
    expect(message).toContain("password-less local account");
    expect(message).toContain("ALLOW_LOCAL_ACCOUNT_ON_NETWORK=true");
  });
  it("starts with a sign-in provider on 0.0.0.0, or when the operator allows the local account there", () => {
    expect(parseEnv({ ...OIDC, HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
    expect(parseEnv({ HOST: "192.168.1.10", ALLOW_LOCAL_ACCOUNT_ON_NETWORK: "yes" }).HOST).toBe("192.168.1.10");
  });
});

describe("start-up warnings", () => {
  const production = { ...OIDC, NODE_ENV: "production" };
  it("warns in production when people reach Patchbay over plain http from other machines", () => {
    expect(hostingWarnings(parseEnv({ ...production, AUTH_URL: "http://chat.example.com" }))).toEqual([
      expect.stringMatching(/^AUTH_URL is http:\/\/chat\.example\.com: without https, sign-in cookies and API keys/),
    ]);
    expect(hostingWarnings(parseEnv({ ...production, HOST: "0.0.0.0" }))).toEqual([
      expect.stringMatching(/^HOST is 0\.0\.0\.0 and AUTH_URL is not set: people reach Patchbay over plain http/),
    ]);
  });
  it("is quiet with https, on loopback only, and outside production", () => {
    expect(hostingWarnings(parseEnv({ ...production, HOST: "0.0.0.0", AUTH_URL: "https://chat.example.com" }))).toEqual(
      [],
    );
    expect(hostingWarnings(parseEnv(production))).toEqual([]);
    expect(hostingWarnings(parseEnv({ ...production, AUTH_URL: "http://localhost:3000" }))).toEqual([]);
    expect(hostingWarnings(parseEnv({ ...OIDC, NODE_ENV: "development", HOST: "0.0.0.0" }))).toEqual([]);
  });
});
