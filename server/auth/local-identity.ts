// The embedded default identity: a real OIDC issuer (local-issuer.ts) on a loopback port with one
// local account, started on first use when no external provider is configured. Auth.js signs in
// through it with the ordinary authorization-code + PKCE flow, so the rest of Patchbay sees a normal
// OAuth account. It never listens beyond loopback and is never started when any provider is set.
import { randomBytes } from "node:crypto";

import type { OIDCConfig } from "next-auth/providers";

import { env } from "../env.ts";
import { LOCAL_PROVIDER_ID } from "./providers.ts";
import { startLocalIssuer, type LocalIssuer } from "./local-issuer.ts";

export const LOCAL_ACCOUNT = { id: "local", email: "local@patchbay.localhost", name: "Local user" };
const CLIENT_ID = "patchbay";

type LocalIdentity = { issuer: LocalIssuer; clientSecret: string };

const globalForIdentity = globalThis as unknown as { patchbayLocalIdentity?: Promise<LocalIdentity> };

/** Every origin a browser may use to reach this instance on this machine. */
function appOrigins(): string[] {
  const origins = new Set([`http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`]);
  if (env.AUTH_URL) origins.add(new URL(env.AUTH_URL).origin);
  return [...origins];
}

async function startIdentity(): Promise<LocalIdentity> {
  const clientSecret = randomBytes(32).toString("base64url");
  const issuer = await startLocalIssuer({
    host: "127.0.0.1",
    port: env.LOCAL_IDP_PORT,
    accounts: [LOCAL_ACCOUNT],
    clients: [
      {
        clientId: CLIENT_ID,
        clientSecret,
        redirectUris: appOrigins().map((origin) => `${origin}/api/auth/callback/${LOCAL_PROVIDER_ID}`),
      },
    ],
    title: "Sign in to Patchbay",
  });
  return { issuer, clientSecret };
}

/** The Auth.js provider for the local identity, starting its issuer if it is not running yet. */
export async function getLocalIdentityProvider(): Promise<OIDCConfig<Record<string, unknown>>> {
  globalForIdentity.patchbayLocalIdentity ??= startIdentity().catch((error: unknown) => {
    globalForIdentity.patchbayLocalIdentity = undefined;
    throw error;
  });
  const { issuer, clientSecret } = await globalForIdentity.patchbayLocalIdentity;
  return {
    id: LOCAL_PROVIDER_ID,
    name: "Local account",
    type: "oidc",
    issuer: issuer.issuer,
    clientId: CLIENT_ID,
    clientSecret,
    checks: ["pkce", "state", "nonce"],
  };
}
