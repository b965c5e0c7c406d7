// Which sign-in buttons an instance shows follows from env alone: the local account when nothing
// is configured, otherwise exactly the configured external providers, in a fixed order.
import { describe, expect, it } from "vitest";

import { parseEnv } from "../env.ts";
import { buildExternalProviders, isLocalIdentityEnabled, listSignInProviders, LOCAL_PROVIDER_ID } from "./providers.ts";

const GITHUB = { AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" };
const GOOGLE = { AUTH_GOOGLE_ID: "google-id", AUTH_GOOGLE_SECRET: "google-secret" };
const OIDC = {
  AUTH_OIDC_ISSUER: "https://sso.example.test/realms/acme",
  AUTH_OIDC_ID: "patchbay",
  AUTH_OIDC_SECRET: "oidc-secret",
  AUTH_OIDC_NAME: "Acme SSO",
};

describe("sign-in providers", () => {
  it("offers only the local account when no provider is configured", () => {
    const config = parseEnv({});
    expect(isLocalIdentityEnabled(config)).toBe(true);
    expect(buildExternalProviders(config)).toEqual([]);
    expect(listSignInProviders(config)).toEqual([{ id: LOCAL_PROVIDER_ID, name: "Local account" }]);
    expect(LOCAL_PROVIDER_ID).toBe("local");
  });

  it("turns the local account off and offers GitHub when GitHub is configured", () => {
    const config = parseEnv(GITHUB);
    expect(isLocalIdentityEnabled(config)).toBe(false);
    expect(listSignInProviders(config)).toEqual([{ id: "github", name: "GitHub" }]);
  });

  it("offers a generic OIDC issuer as `oidc` under AUTH_OIDC_NAME", () => {
    const config = parseEnv(OIDC);
    expect(isLocalIdentityEnabled(config)).toBe(false);
    expect(listSignInProviders(config)).toEqual([{ id: "oidc", name: "Acme SSO" }]);
    expect(buildExternalProviders(config)).toEqual([
      expect.objectContaining({
        id: "oidc",
        type: "oidc",
        issuer: OIDC.AUTH_OIDC_ISSUER,
        clientId: OIDC.AUTH_OIDC_ID,
        clientSecret: OIDC.AUTH_OIDC_SECRET,
        checks: ["pkce", "state", "nonce"],
      }),
    ]);
  });

  it("names the OIDC button with the default when AUTH_OIDC_NAME is unset", () => {
    const { AUTH_OIDC_NAME: _name, ...withoutName } = OIDC;
    expect(listSignInProviders(parseEnv(withoutName))).toEqual([{ id: "oidc", name: "Single sign-on" }]);
  });

  it("lists all three in the order GitHub, Google, OIDC", () => {
    const config = parseEnv({ ...OIDC, ...GOOGLE, ...GITHUB });
    expect(isLocalIdentityEnabled(config)).toBe(false);
    expect(listSignInProviders(config).map((provider) => provider.id)).toEqual(["github", "google", "oidc"]);
  });
});
