// The tokens of a subscription account, kept in ProviderAccount.secrets in the shape every provider
// account uses (accounts.ts: `{ accessToken, refreshToken, idToken }`, sealed), and the account a
// finished sign-in becomes. Tokens only ever leave this module towards a vendor's endpoint.
import type { Db } from "../../db.ts";
import { sealSecret } from "../../crypto/secrets.ts";
import { AppError } from "../../errors.ts";
import { createAccount, openCredentials, updateCredentials } from "../accounts.ts";
import { type SubscriptionFlow, vendorName } from "./flows.ts";
import type { TokenSet } from "./oauth-http.ts";

export type StoredTokens = { accessToken: string; refreshToken?: string; idToken?: string };

/** Sealed like accounts.ts seals credentials; for writes inside the refresh transaction. */
export async function sealTokens(tokens: StoredTokens): Promise<string> {
  const { accessToken, refreshToken, idToken } = tokens;
  return sealSecret(JSON.stringify({ accessToken, refreshToken, idToken }));
}

export async function openTokens(sealed: string): Promise<StoredTokens> {
  const { accessToken, refreshToken, idToken } = await openCredentials({ secrets: sealed });
  if (!accessToken)
    throw new AppError("internal:provider", "A subscription account holds no access token; reconnect it.");
  return { accessToken, ...(refreshToken && { refreshToken }), ...(idToken && { idToken }) };
}

/** New tokens over old ones: a refresh answer may omit the refresh or id token (keep the old ones). */
export function mergeTokens(previous: StoredTokens, next: TokenSet): StoredTokens {
  return {
    accessToken: next.accessToken,
    refreshToken: next.refreshToken ?? previous.refreshToken,
    idToken: next.idToken ?? previous.idToken,
  };
}

export type NewSubscriptionAccount = {
  provider: SubscriptionFlow;
  identity?: string;
  plan?: string;
  tokens: TokenSet;
  metadata?: Record<string, string>;
  models: string[];
};

/**
 * Stores a finished sign-in. Signing in again as the same identity reconnects the existing account
 * (new tokens, active again, metadata kept unless the sign-in brought new values) instead of adding a
 * second one; otherwise a new subscription account is created. Answers the account's id.
 */
export async function saveSubscriptionAccount(db: Db, ownerId: string, account: NewSubscriptionAccount) {
  const vendor = vendorName(account.provider);
  const { accessToken, refreshToken, idToken, expiresAt } = account.tokens;
  const credentials = { accessToken, refreshToken, idToken };
  const existing = account.identity
    ? await db.providerAccount.findFirst({
        where: { ownerId, provider: account.provider, kind: "subscription", identity: account.identity },
        orderBy: { createdAt: "asc" },
      })
    : null;
  if (existing) {
    await updateCredentials(db, existing.id, credentials, expiresAt ?? null);
    await db.providerAccount.update({
      where: { id: existing.id },
      data: {
        metadata: { ...(existing.metadata as Record<string, string>), ...account.metadata },
        ...(account.plan && { plan: account.plan }),
      },
    });
    return { id: existing.id };
  }
  return createAccount(db, ownerId, {
    provider: account.provider,
    kind: "subscription",
    label: account.identity ? `${vendor} (${account.identity})` : vendor,
    identity: account.identity ?? null,
    plan: account.plan ?? null,
    credentials,
    metadata: account.metadata ?? {},
    expiresAt: expiresAt ?? null,
    models: account.models,
  });
}
