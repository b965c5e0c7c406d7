// Reconnecting a subscription account from its own row: the sign-in started for that account revives
// that account — new tokens, active again, its chats keep working — even when the vendor does not
// say who signed in (no identity to match on, which used to add a duplicate). A sign-in as someone
// else is refused rather than grafted onto the account, and only the owner's accounts can be named.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { Db } from "../../db/client.ts";
import { createTestUser } from "../../../e2e/support/testbeds/database.ts";
import { waitForTurnEnd } from "../../../e2e/support/testbeds/engine.ts";
import {
  authorizeInBrowser,
  connectByCodePaste,
  startSubscriptionHarness,
  type SubscriptionHarness,
} from "../../../e2e/support/testbeds/subscriptions.ts";
import { completeLogin, startLogin } from "./logins.ts";

const MODELS = { anthropic: "claude-sonnet-4-5", google: "gemini-2.5-pro" } as const;
let h: SubscriptionHarness;
let db: Db;

beforeAll(async () => {
  h = await startSubscriptionHarness();
  db = h.database.db;
});

afterEach(() => {
  h.oauth.state.hidesIdentity = false;
});

afterAll(async () => {
  await h.close();
});

async function reconnect(userId: string, flow: "anthropic" | "google", accountId: string) {
  const start = await startLogin(db, userId, flow, h.env, undefined, { reconnectAccountId: accountId });
  if (start.kind !== "code-paste") throw new Error("expected a code-paste flow");
  const pasted = await authorizeInBrowser(start.authorizeUrl);
  return (await completeLogin(db, userId, start.loginId, pasted, h.env)).accountId;
}

async function chat(userId: string, flow: "anthropic" | "google", accountId: string) {
  const session = await db.chatSession.create({ data: { ownerId: userId, title: "Reconnect" } });
  h.fake.script(flow, { steps: [{ type: "text", text: "Hi again." }] });
  const choice = { provider: flow, model: MODELS[flow], accountId };
  return waitForTurnEnd(db, (await h.manager.startTurn(userId, session.id, "Hello?", choice)).turnId);
}

describe("reconnecting a subscription account", () => {
  it.each(["anthropic", "google"] as const)(
    "%s: revives the account it was started for when the vendor names no identity",
    async (flow) => {
      h.oauth.state.hidesIdentity = true;
      const user = await createTestUser(db, "Anonymous");
      const accountId = await connectByCodePaste(h, user.id, flow);
      expect(await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
        identity: null,
      });
      h.oauth.revokeRefreshTokens(flow);
      await db.providerAccount.update({ where: { id: accountId }, data: { expiresAt: new Date(Date.now() - 1) } });
      expect((await chat(user.id, flow, accountId)).status).toBe("failed");
      expect((await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).status).toBe(
        "reconnect_needed",
      );

      expect(await reconnect(user.id, flow, accountId)).toBe(accountId);
      expect(await db.providerAccount.count({ where: { ownerId: user.id } })).toBe(1);
      const revived = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
      expect(revived).toMatchObject({ status: "active", lastError: null });
      expect(revived.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 60_000);
      expect(await chat(user.id, flow, accountId)).toMatchObject({ status: "completed", error: null });
    },
  );

  it("refuses a sign-in as someone else instead of grafting it onto the account", async () => {
    const user = await createTestUser(db, "Mixed up");
    const accountId = await connectByCodePaste(h, user.id, "anthropic");
    await db.providerAccount.update({
      where: { id: accountId },
      data: { identity: "someone-else@example.test", status: "reconnect_needed", lastError: "expired" },
    });
    await expect(reconnect(user.id, "anthropic", accountId)).rejects.toThrow(
      /signed in as claude-user@example\.test.*someone-else@example\.test/,
    );
    expect(await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      status: "reconnect_needed",
      identity: "someone-else@example.test",
    });
    expect(await db.providerAccount.count({ where: { ownerId: user.id } })).toBe(1);
  });

  it("only reconnects the owner's own subscription account of that flow", async () => {
    const owner = await createTestUser(db, "Owner");
    const other = await createTestUser(db, "Other");
    const accountId = await connectByCodePaste(h, owner.id, "anthropic");
    const reconnectAs = (userId: string, flow: "anthropic" | "google") =>
      startLogin(db, userId, flow, h.env, undefined, { reconnectAccountId: accountId });
    await expect(reconnectAs(other.id, "anthropic")).rejects.toMatchObject({ code: "not_found:provider" });
    await expect(reconnectAs(owner.id, "google")).rejects.toMatchObject({ code: "bad_request:provider" });
  });
});
