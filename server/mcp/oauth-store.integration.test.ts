// The Postgres McpTokenStore: owners strictly apart, the owner of a pending state found by it,
// compare-and-set updates (single-use state, refresh races), and grants gone with their user or
// connector.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Db } from "../db/client.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import type { McpOAuthOwner } from "./oauth-provider.ts";
import { PrismaMcpTokenStore } from "./oauth-store.ts";

let database: TestDatabase;
let db: Db;
let store: PrismaMcpTokenStore;
let alice: McpOAuthOwner;
let bob: McpOAuthOwner;
let aliceOther: McpOAuthOwner;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  store = new PrismaMcpTokenStore(db);
  const [a, b] = [await createTestUser(db, "Alice"), await createTestUser(db, "Bob")];
  const notes = await db.connector.create({ data: { source: "admin", name: "notes", transport: "streamable-http" } });
  const other = await db.connector.create({ data: { source: "admin", name: "other", transport: "streamable-http" } });
  alice = { userId: a.id, connectorId: notes.id };
  bob = { userId: b.id, connectorId: notes.id };
  aliceOther = { userId: a.id, connectorId: other.id };
});

afterAll(async () => {
  await database?.drop();
});

describe("PrismaMcpTokenStore", () => {
  it("keeps each owner's record apart and merges patches", async () => {
    await store.update(alice, { sealedTokens: "v1.alice", discoveryState: "{}" });
    await store.update(bob, { sealedTokens: "v1.bob" });
    await store.update(alice, { sealedClientInformation: "v1.client" });
    expect(await store.get(alice)).toEqual({
      sealedTokens: "v1.alice",
      sealedClientInformation: "v1.client",
      sealedCodeVerifier: null,
      state: null,
      authorizationUrl: null,
      discoveryState: "{}",
    });
    expect((await store.get(bob))?.sealedTokens).toBe("v1.bob");
    expect(await store.get(aliceOther)).toBeNull();
    expect(await store.grantStates(alice.userId)).toEqual(
      new Map([[alice.connectorId, { hasTokens: true, hasAskedForAuthorization: true }]]),
    );
  });

  it("creates a record once when two first writes race", async () => {
    await Promise.all([store.update(aliceOther, { discoveryState: "{}" }), store.update(aliceOther, { state: "s0" })]);
    expect(await store.get(aliceOther)).toMatchObject({ discoveryState: "{}", state: "s0" });
    await store.remove(aliceOther);
  });

  it("finds the owner of a pending state, and consumes it exactly once", async () => {
    await store.update(alice, { state: "state-a" });
    await store.update(bob, { state: "state-b" });
    expect(await store.findOwnerByState("state-a")).toEqual(alice);
    expect(await store.findOwnerByState("state-b")).toEqual(bob);
    expect(await store.findOwnerByState("nope")).toBeNull();
    await expect(store.update(bob, { state: "state-a" })).rejects.toThrow();

    expect(await store.updateIf(bob, { state: "state-a" }, { state: null })).toBe(false);
    const takes = await Promise.all([1, 2, 3].map(() => store.updateIf(alice, { state: "state-a" }, { state: null })));
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(await store.findOwnerByState("state-a")).toBeNull();
    expect(await store.findOwnerByState("state-b")).toEqual(bob);
  });

  it("clears tokens only while they are the ones the caller read", async () => {
    await store.update(alice, { sealedTokens: "v1.rotated-elsewhere" });
    expect(await store.updateIf(alice, { sealedTokens: "v1.alice" }, { sealedTokens: null })).toBe(false);
    expect((await store.get(alice))?.sealedTokens).toBe("v1.rotated-elsewhere");
    expect(await store.updateIf(alice, { sealedTokens: "v1.rotated-elsewhere" }, { sealedTokens: null })).toBe(true);
    expect((await store.get(alice))?.sealedTokens).toBeNull();
    expect(await store.updateIf(aliceOther, { sealedTokens: null }, { sealedTokens: "x" })).toBe(false);
  });

  it("removes one owner's grant only, and grants go with their connector or user", async () => {
    await store.remove(alice);
    expect(await store.get(alice)).toBeNull();
    expect(await store.get(bob)).not.toBeNull();

    await store.update(alice, { sealedTokens: "v1.again" });
    await db.connector.delete({ where: { id: alice.connectorId } });
    expect(await db.mcpOAuthGrant.count()).toBe(0);
  });
});
