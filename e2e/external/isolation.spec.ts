// Two users in one run: the second can neither see nor touch the first one's sessions, through the
// UI or by calling the API directly with their own session cookie.
import { expect, test } from "@playwright/test";

import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { ALICE, BOB, E2E_PROVIDER_NAME } from "../support/config.ts";
import { trpcMutation, trpcQuery } from "../support/trpc-http.ts";

test("a second user cannot list, read, rename or delete the first user's sessions", async ({ browser }) => {
  const aliceContext = await browser.newContext();
  const alice = await aliceContext.newPage();
  await alice.goto("/");
  await new SignInPage(alice).signIn(E2E_PROVIDER_NAME, ALICE.name);
  const created = await trpcMutation(alice.request, "session.create", { title: "Alice's private plans" });
  expect(created.status).toBe(200);
  const aliceSessionId = (created.data as { id: string }).id;

  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await bob.goto("/");
  await new SignInPage(bob).signIn(E2E_PROVIDER_NAME, BOB.name);
  const bobSessions = new SessionsPage(bob);
  await bobSessions.waitForLoaded();
  await expect(bobSessions.session("Alice's private plans")).toHaveCount(0);

  const bobList = await trpcQuery(bob.request, "session.list");
  expect(bobList.status).toBe(200);
  expect((bobList.data as { id: string }[]).map((s) => s.id)).not.toContain(aliceSessionId);

  const read = await trpcQuery(bob.request, "session.get", { id: aliceSessionId });
  const rename = await trpcMutation(bob.request, "session.rename", { id: aliceSessionId, title: "mine now" });
  const remove = await trpcMutation(bob.request, "session.delete", { id: aliceSessionId });
  for (const attempt of [read, rename, remove]) {
    expect(attempt.status).toBe(404);
    expect(attempt.error?.data?.appCode).toBe("not_found:session");
  }

  const aliceView = await trpcQuery(alice.request, "session.get", { id: aliceSessionId });
  expect(aliceView.status).toBe(200);
  expect((aliceView.data as { title: string }).title).toBe("Alice's private plans");

  await aliceContext.close();
  await bobContext.close();
});

test("bad input gets a clear 400 with the zod issues", async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, ALICE.name);
  const result = await trpcMutation(page.request, "session.rename", { id: "whatever", title: "   " });
  expect(result.status).toBe(400);
  expect(result.error?.data?.appCode).toBe("bad_request:api");
  expect(JSON.stringify(result.error)).toContain("Title cannot be empty");
});
