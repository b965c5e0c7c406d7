// A user signs in through a real OIDC issuer, manages chat sessions, and signs out.
import { expect, test } from "@playwright/test";

import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { ALICE, E2E_PROVIDER_NAME } from "../support/config.ts";

test("signed-out visitors are sent to sign-in, and the API answers 401", async ({ page, request }) => {
  await page.goto("/");
  await new SignInPage(page).expectVisible();
  await expect(page.getByRole("button", { name: `Continue with ${E2E_PROVIDER_NAME}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue with Local account" })).toHaveCount(0);

  const response = await request.get("/api/trpc/session.list");
  expect(response.status()).toBe(401);
});

test("sign in, create, rename and delete a session, sign out", async ({ page }) => {
  const signIn = new SignInPage(page);
  const sessions = new SessionsPage(page);
  await page.goto("/");
  await signIn.signIn(E2E_PROVIDER_NAME, ALICE.name);

  const id = await sessions.create();
  await expect(sessions.row(id)).toContainText("New chat");
  const title = `Plans ${Date.now()}`;
  await sessions.rename(id, "New chat", title);

  await page.reload();
  await expect(sessions.session(title)).toBeVisible();

  await sessions.remove(title);
  await page.reload();
  await expect(sessions.session(title)).toHaveCount(0);

  await sessions.signOut();
  await signIn.expectVisible();
  await page.goto("/");
  await signIn.expectVisible();
});
