// Token refresh for subscription accounts, serialised per account across every app instance: the
// refresh runs inside a transaction holding `SELECT … FOR UPDATE` on the ProviderAccount row, and the
// tokens are re-read after the lock is taken. Whoever waited behind a refresh therefore finds the new
// tokens and does not spend the (single-use, rotating) refresh token a second time. A refresh the
// vendor refuses for good marks the account `reconnect_needed` and every later call fails fast with
// the reconnect message, without calling the vendor again (no retry storm).
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { TransactionClient } from "../../generated/prisma/internal/prismaNamespace.ts";
import { mergeTokens, openTokens, sealTokens, type StoredTokens } from "./account-tokens.ts";
import { reconnectNeededError, type SubscriptionFlow } from "./flows.ts";
import { RefreshRevokedError, type TokenSet } from "./oauth-http.ts";

/** A token that expires within this window is refreshed before use. */
export const EXPIRY_MARGIN_MS = 60_000;

export type AccountTokens = { tokens: StoredTokens; expiresAt: Date | null };

export type RefreshRequest = {
  accountId: string;
  flow: SubscriptionFlow;
  /** The access token that failed (401) and must not be reused; absent for an expiry-driven refresh. */
  rejectedAccessToken?: string;
  /** Calls the vendor's token endpoint; throws RefreshRevokedError when the refresh token is dead. */
  refresh: (tokens: StoredTokens) => Promise<TokenSet>;
  now?: () => number;
};

type LockedRow = { secrets: string; expiresAt: Date | null; status: string };

export const isExpiring = (expiresAt: Date | null, now: number) =>
  expiresAt !== null && expiresAt.getTime() - now <= EXPIRY_MARGIN_MS;

/** Fresh tokens for the account: refreshed under the row lock when needed, else the stored ones. */
export async function refreshAccountTokens(db: Db, request: RefreshRequest): Promise<AccountTokens> {
  const now = request.now ?? Date.now;
  const outcome = await db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<LockedRow[]>`
        SELECT secrets, "expiresAt", status::text AS status FROM "ProviderAccount" WHERE id = ${request.accountId} FOR UPDATE`;
      if (!row) throw new AppError("not_found:provider", "That provider account no longer exists.");
      if (row.status === "reconnect_needed") return { kind: "revoked" as const };
      const current = await openTokens(row.secrets);
      const isRejected =
        request.rejectedAccessToken !== undefined && current.accessToken === request.rejectedAccessToken;
      if (!isRejected && !isExpiring(row.expiresAt, now())) {
        return { kind: "fresh" as const, tokens: current, expiresAt: row.expiresAt };
      }
      if (!current.refreshToken) return revoke(tx, request, "no refresh token is stored");
      try {
        const next = await request.refresh(current);
        const tokens = mergeTokens(current, next);
        const expiresAt = next.expiresAt ?? null;
        await tx.providerAccount.update({
          where: { id: request.accountId },
          data: { secrets: await sealTokens(tokens), expiresAt, lastError: null },
        });
        return { kind: "fresh" as const, tokens, expiresAt };
      } catch (error) {
        if (error instanceof RefreshRevokedError) return revoke(tx, request, error.code);
        throw error;
      }
    },
    { maxWait: 10_000, timeout: 45_000 },
  );
  if (outcome.kind === "revoked") throw reconnectNeededError(request.flow);
  return { tokens: outcome.tokens, expiresAt: outcome.expiresAt };
}

async function revoke(tx: TransactionClient, request: RefreshRequest, reason: string) {
  const message = reconnectNeededError(request.flow).message;
  console.warn(`[patchbay] subscription account ${request.accountId} needs reconnecting: ${reason}`);
  await tx.providerAccount.update({
    where: { id: request.accountId },
    data: { status: "reconnect_needed", lastError: message },
  });
  return { kind: "revoked" as const };
}
