// A McpTokenStore in memory, for the unit tests and the MCP OAuth conformance client: the same
// contract as the Postgres store (server/mcp/oauth-store.ts), no persistence. Not part of the app.
import type { McpOAuthOwner, McpOAuthRecord, McpTokenStore } from "../../../server/mcp/oauth-provider.ts";

const EMPTY_RECORD: McpOAuthRecord = {
  sealedTokens: null,
  sealedClientInformation: null,
  sealedCodeVerifier: null,
  state: null,
  authorizationUrl: null,
  discoveryState: null,
};

export class InMemoryMcpTokenStore implements McpTokenStore {
  private readonly records = new Map<string, { owner: McpOAuthOwner; record: McpOAuthRecord }>();

  get(owner: McpOAuthOwner): Promise<McpOAuthRecord | null> {
    const entry = this.records.get(ownerKey(owner));
    return Promise.resolve(entry ? { ...entry.record } : null);
  }

  update(owner: McpOAuthOwner, patch: Partial<McpOAuthRecord>): Promise<void> {
    const key = ownerKey(owner);
    const record = { ...(this.records.get(key)?.record ?? EMPTY_RECORD), ...patch };
    this.records.set(key, { owner: { userId: owner.userId, connectorId: owner.connectorId }, record });
    return Promise.resolve();
  }

  updateIf(owner: McpOAuthOwner, expected: Partial<McpOAuthRecord>, patch: Partial<McpOAuthRecord>): Promise<boolean> {
    const entry = this.records.get(ownerKey(owner));
    const matches =
      !!entry &&
      Object.entries(expected).every(([field, value]) => entry.record[field as keyof McpOAuthRecord] === value);
    if (matches) entry.record = { ...entry.record, ...patch };
    return Promise.resolve(matches);
  }

  findOwnerByState(state: string): Promise<McpOAuthOwner | null> {
    const entry = [...this.records.values()].find(({ record }) => record.state === state);
    return Promise.resolve(entry ? { ...entry.owner } : null);
  }

  remove(owner: McpOAuthOwner): Promise<void> {
    this.records.delete(ownerKey(owner));
    return Promise.resolve();
  }

  /** The raw stored records (sealed as at rest), for tests that check nothing is in the clear. */
  dump(): McpOAuthRecord[] {
    return [...this.records.values()].map(({ record }) => ({ ...record }));
  }
}

function ownerKey(owner: McpOAuthOwner): string {
  return JSON.stringify([owner.userId, owner.connectorId]);
}
