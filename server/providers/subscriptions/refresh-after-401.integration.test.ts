// A subscription whose access token dies early (the stored expiry still says it is valid) and whose
// refresh token was revoked meanwhile: the vendor's 401 inside the request's fetch triggers one
// refresh, the vendor refuses it for good, the account is marked "reconnect needed" and the turn
// fails with the reconnect message — one refresh call and one model request, no retries by the fetch,
// the retry policy or the AI SDK, and nothing at all on the next turn.
import { afterAll, beforeAll, expect, it } from "vitest";

import { issueAccessToken } from "../../../e2e/support/provider-oauth/tokens.ts";
import type { Db } from "../../db/client.ts";
import { createTestUser } from "../../../e2e/support/testbeds/database.ts";
import { waitForTurnEnd } from "../../../e2e/support/testbeds/engine.ts";
import {
  connectChatGpt,
  startSubscriptionHarness,
  type SubscriptionHarness,
} from "../../../e2e/support/testbeds/subscriptions.ts";
import { openTokens, sealTokens } from "./account-tokens.ts";

let h: SubscriptionHarness;
let db: Db;

beforeAll(async () => {
  h = await startSubscriptionHarness();
  db = h.database.db;
});

afterAll(async () => {
  await h.close();
});

it("marks the account reconnect_needed after a 401 whose refresh is refused for good, without a retry storm", async () => {
  const user = await createTestUser(db, "Revoked");
  const accountId = await connectChatGpt(h, user.id);
  const row = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
  const stale = issueAccessToken("openai", -1_000); // dead at the vendor, though expiresAt says otherwise
  await db.providerAccount.update({
    where: { id: accountId },
    data: { secrets: await sealTokens({ ...(await openTokens(row.secrets)), accessToken: stale }) },
  });
  h.oauth.revokeRefreshTokens("openai");
  const refreshes = () => h.oauth.tokenCalls("openai").filter((call) => call.grant === "refresh_token");
  const before = refreshes().length;
  h.fake.clear();

  const session = await db.chatSession.create({ data: { ownerId: user.id, title: "401" } });
  const choice = { provider: "openai" as const, model: "gpt-5.1-codex", accountId };
  const { turnId } = await h.manager.startTurn(user.id, session.id, "Hello?", choice);
  const turn = await waitForTurnEnd(db, turnId);
  expect(turn.status).toBe("failed");
  expect((turn.error as { message: string }).message).toMatch(/reconnect your ChatGPT account in Settings → Providers/);
  expect(await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
    status: "reconnect_needed",
    lastError: expect.stringMatching(/reconnect your ChatGPT account/) as unknown,
  });
  expect(
    refreshes()
      .slice(before)
      .map((call) => call.outcome),
  ).toEqual(["refresh_token_invalidated"]);
  expect(h.fake.requests("openai").map((request) => request.status)).toEqual([401]);

  const again = await h.manager.startTurn(user.id, session.id, "Still there?", choice);
  expect((await waitForTurnEnd(db, again.turnId)).status).toBe("failed");
  expect(refreshes().length).toBe(before + 1);
  expect(h.fake.requests("openai")).toHaveLength(1);
});
