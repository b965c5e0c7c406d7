// The McpTokenStore of the app: one McpOAuthGrant row per (user, connector) in Postgres, so every
// app instance sees the same tokens, registration and pending authorization. Invariants:
// - Every read and write is keyed by the full owner (userId + connectorId, the primary key); no
//   query ever reaches a row by connector alone, so one user's grant is never read for another.
// - The row holds only what McpOAuthProvider hands over: sealed tokens, registration and verifier,
//   plus `state` in the clear (unique; the callback finds the owner by it) and public metadata.
// - `updateIf` is one conditional UPDATE, atomic in Postgres: it backs the single-use `state` and
//   the compare-and-set that keeps a concurrently rotated refresh token (see oauth-provider.ts).
import type { Db } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { McpOAuthOwner, McpOAuthRecord, McpTokenStore } from "./oauth-provider.ts";

const RECORD_FIELDS = {
  sealedTokens: true,
  sealedClientInformation: true,
  sealedCodeVerifier: true,
  state: true,
  authorizationUrl: true,
  discoveryState: true,
} as const;

function ownerWhere(owner: McpOAuthOwner) {
  return { userId_connectorId: { userId: owner.userId, connectorId: owner.connectorId } };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

export class PrismaMcpTokenStore implements McpTokenStore {
  constructor(private readonly db: Db) {}

  get(owner: McpOAuthOwner): Promise<McpOAuthRecord | null> {
    return this.db.mcpOAuthGrant.findUnique({ where: ownerWhere(owner), select: RECORD_FIELDS });
  }

  async update(owner: McpOAuthOwner, patch: Partial<McpOAuthRecord>): Promise<void> {
    const write = () =>
      this.db.mcpOAuthGrant.upsert({
        where: ownerWhere(owner),
        create: { userId: owner.userId, connectorId: owner.connectorId, ...patch },
        update: patch,
        select: { userId: true },
      });
    try {
      await write();
    } catch (error) {
      // Two first writes for one owner at once: the loser's insert conflicts; it updates instead.
      if (!isUniqueViolation(error)) throw error;
      await write();
    }
  }

  async updateIf(
    owner: McpOAuthOwner,
    expected: Partial<McpOAuthRecord>,
    patch: Partial<McpOAuthRecord>,
  ): Promise<boolean> {
    const { count } = await this.db.mcpOAuthGrant.updateMany({
      where: { userId: owner.userId, connectorId: owner.connectorId, ...expected },
      data: patch,
    });
    return count === 1;
  }

  findOwnerByState(state: string): Promise<McpOAuthOwner | null> {
    return this.db.mcpOAuthGrant.findUnique({ where: { state }, select: { userId: true, connectorId: true } });
  }

  async remove(owner: McpOAuthOwner): Promise<void> {
    await this.db.mcpOAuthGrant.deleteMany({ where: { userId: owner.userId, connectorId: owner.connectorId } });
  }

  /**
   * For each connector the user holds a grant row for: whether they hold tokens, and whether the
   * server ever asked for authorization (discovery ran, which only happens after a 401).
   */
  async grantStates(userId: string): Promise<Map<string, { hasTokens: boolean; hasAskedForAuthorization: boolean }>> {
    const rows = await this.db.mcpOAuthGrant.findMany({
      where: { userId },
      select: { connectorId: true, sealedTokens: true, discoveryState: true },
    });
    return new Map(
      rows.map((row) => [
        row.connectorId,
        { hasTokens: row.sealedTokens !== null, hasAskedForAuthorization: row.discoveryState !== null },
      ]),
    );
  }
}
