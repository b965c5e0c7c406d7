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

test("the API gzips large answers only: a small one goes out as it is", async ({ page, sessions }) => {
  await sessions.create();
  const gzip = { "accept-encoding": "gzip" };
  const created = await page.request.post("/api/trpc/session.create", {
    data: { json: {} },
    headers: { ...gzip, "sec-fetch-site": "same-origin" },
  });
  expect(created.status()).toBe(200);
  const { id } = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json;
  expect((await created.body()).byteLength).toBeLessThan(1024);
  expect(created.headers()["content-encoding"]).toBeUndefined();
  expect(created.headers()["cache-control"]).toContain("no-transform");

  // The chat's tools (the built-in tools' descriptions) are well over a kilobyte.
  const input = encodeURIComponent(JSON.stringify({ json: { sessionId: id } }));
  const tools = await page.request.get(`/api/trpc/tools.state?input=${input}`, { headers: gzip });
  expect(tools.status()).toBe(200);
  expect((await tools.body()).byteLength).toBeGreaterThan(1024);
  expect(tools.headers()["content-encoding"]).toBe("gzip");
  expect(tools.headers()["cache-control"] ?? "").not.toContain("no-transform");
});
