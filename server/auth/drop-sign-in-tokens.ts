// Patchbay signs people in with OAuth / OIDC but never calls the provider on their behalf afterwards,
// so the tokens Auth.js would store with the linked account (access, refresh and id token, session
// state) are dropped before they reach the database: nothing to steal from a dump or a backup. The
// link itself (provider + account id, scope, expiry) is kept; it is what finds the user next time.
import type { Adapter, AdapterAccount } from "next-auth/adapters";

const TOKEN_FIELDS = ["access_token", "refresh_token", "id_token", "session_state"] as const;

/** The account as stored: the link without its tokens. */
export function withoutTokens(account: AdapterAccount): AdapterAccount {
  const kept: AdapterAccount = { ...account };
  for (const field of TOKEN_FIELDS) delete kept[field];
  return kept;
}

export function withoutSignInTokens(base: Adapter): Adapter {
  return { ...base, linkAccount: (account) => base.linkAccount!(withoutTokens(account)) };
}
