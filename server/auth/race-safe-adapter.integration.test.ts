// Two first sign-ins of the same new account at the same moment, through Auth.js's own
// handleLoginOrRegister and the Prisma adapter on the real Postgres: both end signed in as one user
// with one link. A different account with the same e-mail is still refused (OAuthAccountNotLinked).
import { randomUUID } from "node:crypto";

import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterAccount } from "next-auth/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Auth.js's real sign-in logic (not exported by the package; imported by path on purpose).
import { handleLoginOrRegister } from "../../node_modules/@auth/core/lib/actions/callback/handle-login.js";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { runSignInRequest, withRaceSafeSignIn } from "./race-safe-adapter.ts";

type Login = (
  sessionToken: string | undefined,
  profile: Record<string, unknown>,
  account: AdapterAccount,
  options: Record<string, unknown>,
) => Promise<{ user: { id: string }; isNewUser?: boolean }>;
const login = handleLoginOrRegister as unknown as Login;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

/** The base adapter made slow between its calls, so two sign-ins interleave the way a race does. */
function slowAdapter(base: Adapter, delayMs: number): Adapter {
  const pause = () => new Promise((resolve) => setTimeout(resolve, delayMs));
  return {
    ...base,
    getUserByAccount: async (key) => {
      const user = await base.getUserByAccount!(key);
      await pause();
      return user;
    },
    getUserByEmail: async (email) => {
      const user = await base.getUserByEmail!(email);
      await pause();
      return user;
    },
    createUser: async (data) => {
      const user = await base.createUser!(data);
      await pause();
      return user;
    },
  };
}

function signIn(adapter: Adapter, providerAccountId: string, email: string, provider = "oidc") {
  const account: AdapterAccount = {
    provider,
    providerAccountId,
    type: "oidc",
    userId: "",
    access_token: "t",
    token_type: "bearer",
  };
  const options = {
    adapter,
    events: {},
    jwt: {},
    provider: { id: provider, type: "oidc", account: (tokens: Record<string, unknown>) => tokens },
    session: { strategy: "database", maxAge: 3600, generateSessionToken: () => randomUUID() },
  };
  return runSignInRequest(() => login(undefined, { id: providerAccountId, email, name: "Racer" }, account, options));
}

describe("first sign-in race", () => {
  it("two simultaneous first sign-ins of one account end as one user", async () => {
    const adapter = withRaceSafeSignIn(slowAdapter(PrismaAdapter(database.db), 40), database.db, { pollMs: 10 });
    const [first, second] = await Promise.all([
      signIn(adapter, "racer-sub", "racer@example.test"),
      signIn(adapter, "racer-sub", "racer@example.test"),
    ]);
    expect(second.user.id).toBe(first.user.id);
    expect(await database.db.user.count({ where: { email: "racer@example.test" } })).toBe(1);
    expect(await database.db.account.count({ where: { providerAccountId: "racer-sub" } })).toBe(1);
    expect(await database.db.session.count({ where: { userId: first.user.id } })).toBe(2);
  });

  it("without the wrapper the same race fails (the test reproduces it)", async () => {
    const adapter = slowAdapter(PrismaAdapter(database.db), 40);
    const results = await Promise.allSettled([
      signIn(adapter, "plain-sub", "plain@example.test"),
      signIn(adapter, "plain-sub", "plain@example.test"),
    ]);
    expect(results.filter((result) => result.status === "rejected")).toHaveLength(1);
  });

  it("still refuses another account that claims the same e-mail", async () => {
    const adapter = withRaceSafeSignIn(PrismaAdapter(database.db), database.db, { linkWaitMs: 200, pollMs: 10 });
    const owner = await signIn(adapter, "owner-sub", "owner@example.test");
    await expect(signIn(adapter, "intruder-sub", "owner@example.test", "github")).rejects.toMatchObject({
      type: "OAuthAccountNotLinked",
    });
    const links = await database.db.account.findMany({ where: { userId: owner.user.id } });
    expect(links.map((link) => link.providerAccountId)).toEqual(["owner-sub"]);
  });
});
