// A long chat opens on its latest exchanges: only they are rendered at first (so the page is
// interactive sooner), the page lands on them, after a reload too, and scrolling up renders the
// earlier ones a page at a time, keeping what the reader looked at where it was on screen, until
// every message can be reached. The last message stays editable with ↑. The server renders the
// chat's latest messages into the page's HTML (its data prefetched), so they show before scripts run.
import type { APIRequestContext } from "@playwright/test";

import { expect, test } from "../support/fixtures.ts";
import { trpcMutationWhenIdle, trpcQuery } from "../support/trpc-http.ts";

const EXCHANGES = 25;
const FIRST_SHOWN = 10; // components/chat/exchange-window.tsx

/** A chat of EXCHANGES answered messages ("message 0: …" to "message 24: …"), made over the API. */
async function createLongChat(request: APIRequestContext): Promise<string> {
  const session = (await trpcMutationWhenIdle(request, "session.create", undefined)) as { id: string };
  for (let i = 0; i < EXCHANGES; i++)
    await trpcMutationWhenIdle(request, "chat.send", {
      sessionId: session.id,
      text: `message ${i}: ${"lorem ipsum ".repeat(30)}`,
    });
  await expect
    .poll(async () => {
      const history = await trpcQuery(request, "chat.history", { sessionId: session.id });
      return (history.data as { session: { activeTurnId: string | null } }).session.activeTurnId;
    })
    .toBeNull();
  return session.id;
}

test("the chat page's HTML already shows the chat's latest messages, before any script ran", async ({ page }) => {
  test.setTimeout(120_000);
  const sessionId = await createLongChat(page.request);
  await page.context().route("**/*.js", (route) => route.abort());
  await page.goto(`/s/${sessionId}`);
  const messages = page.getByTestId("user-message");
  await expect(messages).toHaveCount(FIRST_SHOWN);
  await expect(messages.last()).toHaveText(/^message 24:/);
  await expect(page.getByTestId("tools-summary")).toHaveText(/\d+ tools?/);
  await expect(page.getByText("Loading…")).toHaveCount(0);
});

test("a long chat opens on its latest messages and renders the earlier ones as the reader scrolls up", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sessionId = await createLongChat(page.request);
  await page.goto(`/s/${sessionId}`);
  const messages = page.getByTestId("user-message");
  const message = (i: number) => messages.filter({ hasText: new RegExp(`^message ${i}:`) });
  await expect(messages.last()).toHaveText(/^message 24:/);
  await expect(messages.last()).toBeInViewport();
  await expect(messages).toHaveCount(FIRST_SHOWN);
  await expect(message(0)).toHaveCount(0);

  // At the top of what is shown, the earlier messages appear above the first one, which stays put.
  const firstShown = message(EXCHANGES - FIRST_SHOWN);
  const topBefore = await firstShown.evaluate((element) => {
    window.scrollTo({ top: 0 });
    return element.getBoundingClientRect().top;
  });
  await expect(messages).toHaveCount(EXCHANGES);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  expect(
    Math.abs((await firstShown.evaluate((element) => element.getBoundingClientRect().top)) - topBefore),
  ).toBeLessThan(2);
  await expect(page.getByRole("button", { name: "Show earlier messages" })).toHaveCount(0);

  // Every message is reachable by scrolling up.
  await page.mouse.move(400, 300);
  await expect(async () => {
    await page.mouse.wheel(0, -3000);
    await expect(message(0)).toBeInViewport({ timeout: 500 });
  }).toPass();

  // A reload lands on the latest message again; ↑ edits it.
  await page.reload();
  await expect(messages.last()).toBeInViewport();
  await expect(messages).toHaveCount(FIRST_SHOWN);
  await page.getByLabel("Message", { exact: true }).press("ArrowUp");
  await expect(page.getByLabel("Edit message")).toHaveValue(/^message 24:/);
});
