// Auth.js for Patchbay: database sessions through the Prisma adapter, providers from env (or the
// embedded local identity when none is set), our own sign-in page. Initialised lazily per request
// because the database and the local issuer start asynchronously on first use.
import { PrismaAdapter } from "@auth/prisma-adapter";
import NextAuth, { type NextAuthConfig } from "next-auth";

import { getDb } from "../db/client.ts";
import { env } from "../env.ts";
import { getLocalIdentityProvider } from "./local-identity.ts";
import { withRaceSafeSignIn } from "./race-safe-adapter.ts";
import { buildExternalProviders, isLocalIdentityEnabled } from "./providers.ts";
import { getAuthSecret } from "./secret.ts";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

async function buildConfig(): Promise<NextAuthConfig> {
  const db = await getDb();
  const providers = isLocalIdentityEnabled(env) ? [await getLocalIdentityProvider()] : buildExternalProviders(env);
  return {
    adapter: withRaceSafeSignIn(PrismaAdapter(db), db),
    providers,
    secret: await getAuthSecret(),
    trustHost: true,
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    callbacks: {
      session({ session, user }) {
        return { ...session, user: { ...session.user, id: user.id } };
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
