// `npm start` on a fresh clone: no .env, no DATABASE_URL, no OAuth app. The embedded Postgres and the
// embedded local identity come up, and a person signs in with the local account.
import { expect, test } from "@playwright/test";

import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";

test("a newcomer signs in with the local account and keeps a session", async ({ page }) => {
  await page.goto("/");
  const signIn = new SignInPage(page);
  await signIn.expectVisible();
  await signIn.signIn("Local account", "Local user");

  const sessions = new SessionsPage(page);
  const id = await sessions.create();
  await sessions.rename(id, "New chat", "First steps");
  await page.reload();
  await expect(sessions.session("First steps")).toBeVisible();

  await sessions.signOut();
  await signIn.expectVisible();
});
