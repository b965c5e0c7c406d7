// Auth.js for Patchbay: database sessions through the Prisma adapter, providers from env (or the
// embedded local identity when none is set), our own sign-in page. Initialised lazily per request
// because the database and the local issuer start asynchronously on first use. The session carries
// no token (public-session.ts), redirects stay on the site (safe-path.ts), and the provider's
// sign-in tokens are never stored (drop-sign-in-tokens.ts).
import { PrismaAdapter } from "@auth/prisma-adapter";
import NextAuth, { type NextAuthConfig } from "next-auth";

import { getDb } from "../db/client.ts";
import { env } from "../env.ts";
import { withoutSignInTokens } from "./drop-sign-in-tokens.ts";
import { getLocalIdentityProvider } from "./local-identity.ts";
import { toSessionPayload } from "./public-session.ts";
import { withRaceSafeSignIn } from "./race-safe-adapter.ts";
import { buildExternalProviders, isLocalIdentityEnabled } from "./providers.ts";
import { safeRedirectUrl } from "./safe-path.ts";
import { getAuthSecret } from "./secret.ts";
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from "./session-ages.ts";

async function buildConfig(): Promise<NextAuthConfig> {
  const db = await getDb();
  const providers = isLocalIdentityEnabled(env) ? [await getLocalIdentityProvider()] : buildExternalProviders(env);
  return {
    adapter: withoutSignInTokens(withRaceSafeSignIn(PrismaAdapter(db), db)),
    providers,
    secret: await getAuthSecret(),
    trustHost: true,
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    callbacks: {
      session({ session, user }) {
        return toSessionPayload(session.expires, user);
      },
      redirect({ url, baseUrl }) {
        return safeRedirectUrl(url, baseUrl);
      },
    },
    logger: {
      error(error) {
        console.error(`[auth] ${error.name}: ${error.message}`);
      },
      warn(code) {
        if (code !== "debug-enabled") console.warn(`[auth] warning: ${code}`);
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(buildConfig);
