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

test("sign in, create, rename and delete a session, sign out", async ({ page, playwright, signIn, sessions }) => {
  const id = await sessions.create();
  await expect(sessions.row(id)).toContainText("New chat");
  const title = `Plans ${Date.now()}`;
  await sessions.rename(id, "New chat", title);

  await page.reload();
  await expect(sessions.session(title)).toBeVisible();

  await sessions.remove(title);
  await page.reload();
  await expect(sessions.session(title)).toHaveCount(0);

  // The API's answers carry its own security headers (the page proxy skips the API's hot path).
  const listed = await page.request.get("/api/trpc/session.list");
  expect(listed.status()).toBe(200);
  expect(listed.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(listed.headers()["x-content-type-options"]).toBe("nosniff");
  expect(listed.headers()["x-frame-options"]).toBe("DENY");
  const cookie = (await page.context().cookies())
    .filter(({ name }) => name.includes("authjs.session-token"))
    .map(({ name, value }) => `${name}=${value}`)
    .join("; ");
  expect(cookie).not.toBe("");

  await sessions.signOut();
  await signIn.expectVisible();
  await page.goto("/");
  await signIn.expectVisible();

  // The signed-out session's cookie, replayed at once, no longer opens the API.
  const replay = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const refused = await replay.get("/api/trpc/session.list", { headers: { cookie } });
    expect(refused.status()).toBe(401);
    const body = (await refused.json()) as { error: { json: { message: string; data: { appCode: string } } } };
    expect(body.error.json.data.appCode).toBe("unauthorized:auth");
    expect(body.error.json.message).toMatch(/sign in/i);
  } finally {
    await replay.dispose();
  }
});
