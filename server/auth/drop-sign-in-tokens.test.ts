// The adapter wrapper hands the base adapter the account link without any sign-in token.
import type { Adapter, AdapterAccount } from "next-auth/adapters";
import { describe, expect, it } from "vitest";

import { withoutSignInTokens } from "./drop-sign-in-tokens.ts";

describe("withoutSignInTokens", () => {
  it("links the account without access, refresh or id token", async () => {
    const linked: AdapterAccount[] = [];
    const base: Adapter = {
      linkAccount: (account) => {
        linked.push(account);
      },
    };
    const account: AdapterAccount = {
      userId: "u1",
      type: "oidc",
      provider: "oidc",
      providerAccountId: "sub-1",
      access_token: "at-canary",
      refresh_token: "rt-canary",
      id_token: "id-canary",
      session_state: "ss-canary",
      token_type: "bearer",
      scope: "openid email",
      expires_at: 123,
    };
    await withoutSignInTokens(base).linkAccount!(account);
    expect(linked).toEqual([
      {
        userId: "u1",
        type: "oidc",
        provider: "oidc",
        providerAccountId: "sub-1",
        token_type: "bearer",
        scope: "openid email",
        expires_at: 123,
      },
    ]);
    expect(JSON.stringify(linked)).not.toMatch(/canary/);
    expect(account.access_token).toBe("at-canary"); // the caller's object is not changed
  });
});
