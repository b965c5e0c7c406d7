// A user signs in through a real OIDC issuer, manages chat sessions, and signs out.
import { E2E_PROVIDER_NAME } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";

test.describe("signed out", () => {
  test.use({ account: null });

  test("signed-out visitors are sent to sign-in, and the API answers 401", async ({ page, request, signIn }) => {
    await page.goto("/");
    await signIn.expectVisible();
    await expect(page.getByRole("button", { name: `Continue with ${E2E_PROVIDER_NAME}` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Local account" })).toHaveCount(0);

    const response = await request.get("/api/trpc/session.list");
    expect(response.status()).toBe(401);
  });
});

test("sign in, create, rename and delete a session, sign out", async ({ page, signIn, sessions }) => {
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
