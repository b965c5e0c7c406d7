// What a new user met in the browser (issue 11), each checked where it happened: the home page's
// New chat opens the chat it creates; the Turn details drawer is wide enough for its table (Tokens
// and Time without a sideways scroll); a page reloaded mid-answer in a long chat lands scrolled to
// the live answer, not at the top, and stays on it while it grows.
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";

test("New chat on the home page opens the new chat", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "New chat", exact: true }).click();
  await expect(page).toHaveURL(/\/s\/[^/]+$/);
  await expect(page.getByLabel("Message", { exact: true })).toBeVisible();
});

test("the Turn details drawer shows its whole table without a sideways scroll", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.send('use tool builtin_current_time {"timezone":"Europe/Paris"}');
  await chat.expectLastAnswerDone();
  const details = await chat.openTurnDetails();
  await expect(details.getByTestId("request-tokens").first()).toHaveText(/^\d+ in \/ \d+ out$/);

  const overflow = await details.evaluate((drawer) => drawer.scrollWidth - drawer.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const drawerBox = (await details.boundingBox())!;
  for (const name of ["Tokens", "Time"]) {
    const header = (await details.getByRole("columnheader", { name, exact: true }).boundingBox())!;
    expect(header.x + header.width).toBeLessThanOrEqual(drawerBox.x + drawerBox.width);
  }
  await expect(page.getByTestId("request-duration").first()).toBeInViewport({ ratio: 1 });
});

test("a reload mid-answer in a long chat lands on the live answer", async ({ page, request, chat }) => {
  test.setTimeout(120_000);
  await chat.openNewChat();
  const filler = "A long question that fills the page with lines of text. ".repeat(25);
  for (let i = 0; i < 4; i += 1) {
    await chat.send(`${i} ${filler}`);
    await chat.expectLastAnswerDone();
  }
  await scriptFakeReply(request, "anthropic", {
    forMessage: "answer slowly at the end",
    steps: [{ type: "text", text: "live ".repeat(1500), chunkSize: 5 }], // about a minute
    delayMs: 40,
  });
  await chat.send("answer slowly at the end");
  await expect(chat.lastAnswer()).toContainText("live live");

  await page.reload();
  const writing = chat.lastAnswer().getByText("Writing…");
  await expect(writing).toBeVisible();
  await expect(writing).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect(page.getByTestId("user-message").first()).not.toBeInViewport();
  // It stays on the live answer as the answer grows.
  await expect(chat.lastAnswer()).toContainText("live ".repeat(300).trim(), { timeout: 30_000 });
  await expect(writing).toBeInViewport();
  await chat.stop();
});
