// The tokens of a subscription account, kept in ProviderAccount.secrets in the shape every provider
// account uses (accounts.ts: `{ accessToken, refreshToken, idToken }`, sealed), and the account a
// finished sign-in becomes (a new one, or the one it reconnects). Tokens only ever leave this module
// towards a vendor's endpoint.
import type { Db } from "../../db/client.ts";
import { sealSecret } from "../../crypto/secrets.ts";
import { AppError } from "../../errors.ts";
import type { ProviderAccount } from "../../generated/prisma/client.ts";
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
  /** The account whose Reconnect started this sign-in (its row's button). */
  reconnectAccountId?: string;
};

type Metadata = Record<string, string>;

/** Same ChatGPT account (workspace) or unknown on either side. */
const isSameChatGptAccount = (row: ProviderAccount, account: NewSubscriptionAccount) => {
  const before = (row.metadata as Metadata).chatgptAccountId;
  const after = account.metadata?.chatgptAccountId;
  return !before || !after || before === after;
};

/** The account a finished sign-in revives: the one Reconnect named, else one signed in as the same identity. */
async function findAccountToRevive(db: Db, ownerId: string, account: NewSubscriptionAccount) {
  const where = { ownerId, provider: account.provider, kind: "subscription" as const };
  if (account.reconnectAccountId) {
    const target = await db.providerAccount.findFirst({ where: { ...where, id: account.reconnectAccountId } });
    if (target) return target; // removed meanwhile: the sign-in is kept as an account of its own
  }
  if (!account.identity) return null;
  const matches = await db.providerAccount.findMany({
    where: { ...where, identity: account.identity },
    orderBy: { createdAt: "asc" },
  });
  return matches.find((row) => isSameChatGptAccount(row, account)) ?? null;
}

/** Refuses to put someone else's tokens on an account: its history holds that user's signatures. */
function assertSameSignIn(row: ProviderAccount, account: NewSubscriptionAccount): void {
  const vendor = vendorName(account.provider);
  if (row.identity && account.identity && row.identity !== account.identity) {
    throw new AppError(
      "bad_request:provider",
      `You signed in as ${account.identity}, but this account is ${row.identity}. Sign in to ${vendor} as ` +
        `${row.identity} to reconnect it, or connect ${account.identity} as a new account.`,
    );
  }
  if (!isSameChatGptAccount(row, account)) {
    throw new AppError(
      "bad_request:provider",
      `You signed in to another ${vendor} account or workspace; connect it as a new account instead.`,
    );
  }
}

async function revive(db: Db, row: ProviderAccount, account: NewSubscriptionAccount): Promise<void> {
  const { accessToken, refreshToken, idToken, expiresAt } = account.tokens;
  await updateCredentials(db, row.id, { accessToken, refreshToken, idToken }, expiresAt ?? null);
  await db.providerAccount.update({
    where: { id: row.id },
    data: {
      metadata: { ...(row.metadata as Metadata), ...account.metadata },
      ...(account.plan && { plan: account.plan }),
      ...(account.identity && !row.identity && { identity: account.identity }),
    },
  });
}

/**
 * Stores a finished sign-in. A sign-in started by an account's Reconnect revives that account (new
 * tokens, active again, metadata kept unless the sign-in brought new values), also when the vendor
 * does not say who signed in; it is refused when the vendor names someone else. Signing in again
 * as the same identity also revives that account instead of adding a second one; otherwise a new
 * subscription account is created. Answers the account's id.
 */
export async function saveSubscriptionAccount(
  db: Db,
  ownerId: string,
  account: NewSubscriptionAccount,
): Promise<{ id: string }> {
  const existing = await findAccountToRevive(db, ownerId, account);
  if (existing) {
    assertSameSignIn(existing, account);
    await revive(db, existing, account);
    return { id: existing.id };
  }
  const { accessToken, refreshToken, idToken, expiresAt } = account.tokens;
  const vendor = vendorName(account.provider);
  return createAccount(db, ownerId, {
    provider: account.provider,
    kind: "subscription",
    label: account.identity ? `${vendor} (${account.identity})` : vendor,
    identity: account.identity ?? null,
    plan: account.plan ?? null,
    credentials: { accessToken, refreshToken, idToken },
    metadata: account.metadata ?? {},
    expiresAt: expiresAt ?? null,
    models: account.models,
  });
}
