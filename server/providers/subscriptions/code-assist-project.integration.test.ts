// Code Assist onboarding runs once per Google account even when two first turns race for it (two
// tabs, two app instances): the second caller waits on the account's row lock, then finds the
// project the first stored, and the vendor sees one onboarding.
import { afterAll, beforeAll, expect, it } from "vitest";

import type { Db } from "../../db/client.ts";
import { createTestUser } from "../../../e2e/support/testbeds/database.ts";
import {
  connectByCodePaste,
  startSubscriptionHarness,
  type SubscriptionHarness,
} from "../../../e2e/support/testbeds/subscriptions.ts";
import { subscriptionConnection } from "./connection.ts";

let h: SubscriptionHarness;
let db: Db;

beforeAll(async () => {
  h = await startSubscriptionHarness();
  db = h.database.db;
});

afterAll(async () => {
  await h.close();
});

it("onboards a Google account once when two first requests race, and stores the project once", async () => {
  const user = await createTestUser(db, "Racer");
  const accountId = await connectByCodePaste(h, user.id, "google");
  h.fake.codeAssist.projects.clear();
  h.fake.codeAssist.pollsToFinish = 4; // onboarding takes a few polls: plenty of time to race
  const onboardings = h.fake.codeAssist.operations.size;
  const account = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
  expect(account.metadata).toEqual({});

  const connect = () =>
    subscriptionConnection(db, account, undefined, { env: h.env, onboarding: { pollIntervalMs: 25 } });
  const [first, second] = await Promise.all([connect(), connect()]);

  expect(h.fake.codeAssist.operations.size - onboardings).toBe(1);
  expect(first.baseURL).toBe(second.baseURL);
  const stored = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
  expect(stored.metadata).toEqual({ project: "fake-companion-gemini-user", tier: "free-tier" });
  expect(stored.plan).toBe("Gemini Code Assist for individuals");

  await connect(); // the stored row (still the stale object here) is re-read under the lock: no new onboarding
  expect(h.fake.codeAssist.operations.size - onboardings).toBe(1);
});
