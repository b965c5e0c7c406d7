// Makes a user's first sign-in safe when it happens twice at once (two tabs, a double click on the
// provider's consent page). Auth.js creates a new user in four adapter calls — getUserByAccount,
// getUserByEmail, createUser, linkAccount — with no lock between them, so the slower of two racing
// callbacks either finds the half-created user by e-mail (and refuses with OAuthAccountNotLinked)
// or fails on the unique e-mail. This wrapper lets the slower callback join the user the faster one
// is creating for **the same provider account**, and nothing else:
// - `getUserByAccount` remembers, per callback request, which provider account is signing in (the
//   request runs inside `runSignInRequest`, an AsyncLocalStorage scope);
// - `getUserByEmail` hides a user only while it is being created for that same account: it has no
//   linked account yet (waited for briefly) or its link is that very account;
// - `createUser` on a duplicate e-mail returns that same user under the same condition;
// - `linkAccount` of a link that already exists for the same user is a no-op.
// A user whose e-mail matches but who is linked to any other account is never joined: Auth.js's own
// OAuthAccountNotLinked protection stays intact.
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";

import type { Adapter, AdapterAccount } from "next-auth/adapters";

import type { Db } from "../db/client.ts";

type ProviderAccountKey = { provider: string; providerAccountId: string };
type SignInScope = { account?: ProviderAccountKey };

const scope = new AsyncLocalStorage<SignInScope>();

/** Runs one Auth.js request with a scope the adapter remembers the signing-in account in. */
export function runSignInRequest<T>(handler: () => Promise<T>): Promise<T> {
  return scope.run({}, handler);
}

export type RaceSafeOptions = { linkWaitMs?: number; pollMs?: number };

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}

export function withRaceSafeSignIn(base: Adapter, db: Db, options: RaceSafeOptions = {}): Adapter {
  const linkWaitMs = options.linkWaitMs ?? 3_000;
  const pollMs = options.pollMs ?? 50;

  /** The links of a user, waiting briefly while it has none (its creator is about to link it). */
  async function settledLinks(userId: string): Promise<ProviderAccountKey[]> {
    const deadline = Date.now() + linkWaitMs;
    for (;;) {
      const links = await db.account.findMany({
        where: { userId },
        select: { provider: true, providerAccountId: true },
      });
      if (links.length > 0 || Date.now() >= deadline) return links;
      await sleep(pollMs);
    }
  }

  /** Is this user being created (or already linked) for the account signing in now? */
  async function isSameSignIn(userId: string): Promise<boolean> {
    const account = scope.getStore()?.account;
    if (!account) return false;
    const links = await settledLinks(userId);
    if (links.length === 0) return true; // created and never linked: nobody else owns it
    return links.some(
      (link) => link.provider === account.provider && link.providerAccountId === account.providerAccountId,
    );
  }

  return {
    ...base,
    async getUserByAccount(key) {
      const store = scope.getStore();
      if (store) store.account = { provider: key.provider, providerAccountId: key.providerAccountId };
      return base.getUserByAccount!(key);
    },
    async getUserByEmail(email) {
      const user = await base.getUserByEmail!(email);
      if (user && (await isSameSignIn(user.id))) return null;
      return user;
    },
    async createUser(data) {
      try {
        return await base.createUser!(data);
      } catch (error) {
        if (!isUniqueViolation(error) || !data.email) throw error;
        const existing = await base.getUserByEmail!(data.email);
        if (existing && (await isSameSignIn(existing.id))) return existing;
        throw error;
      }
    },
    async linkAccount(account: AdapterAccount): Promise<void> {
      try {
        await base.linkAccount!(account);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const existing = await db.account.findUnique({
          where: {
            provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId },
          },
          select: { userId: true },
        });
        if (existing?.userId !== account.userId) throw error;
      }
    },
  };
}
