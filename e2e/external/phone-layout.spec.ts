// Patchbay at phone width (390×844): sign in, open a chat, send a message (a long unbroken word and
// a code block), run a tool, open the Tools sheet and the chat list sheet, visit settings. Nothing
// may scroll sideways: the document is never wider than the window.
import type { Page } from "@playwright/test";

import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test.use({ viewport: { width: 390, height: 844 } });

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test("chat, Tools panel, chat list and settings are usable at 390×844", async ({ page, chat }) => {
  await expectNoHorizontalOverflow(page);

  await chat.openNewChat();
  await expectNoHorizontalOverflow(page);

  const longWord = "x".repeat(160);
  await chat.send(`phone check ${longWord}\n\n\`\`\`js\nconst answer = "${"y".repeat(120)}";\n\`\`\``);
  await expect(chat.lastAnswer()).toContainText("Echo: phone check");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswer().getByRole("button", { name: "Copy code" })).toBeVisible();
  await expectNoHorizontalOverflow(page);

  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  await expect(chat.lastToolCard()).toContainText("done");
  await chat.expectLastAnswerDone();
  await expectNoHorizontalOverflow(page);

  // The Tools panel is a bottom sheet here, opened by the summary chip: the connector switches live in it.
  await expect(chat.connectorSwitch("everything")).toHaveCount(0);
  await chat.toolsSummary().click();
  const tools = page.getByRole("dialog", { name: "Tools for this chat" });
  await expect(tools).toBeVisible();
  await chat.switchConnector("everything", true);
  await expect(chat.toolsRevision()).not.toHaveText("revision 1");
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, "phone-tools");
  await page.keyboard.press("Escape");
  await expect(tools).toHaveCount(0);

  // The chat list is a sheet too, opened from the chat's toolbar.
  await page.getByRole("button", { name: "Chats", exact: true }).click();
  const list = page.getByRole("dialog", { name: "Chats" });
  await expect(list.getByRole("link", { name: /^phone check/ })).toHaveAttribute("aria-current", "page");
  await list.getByRole("searchbox", { name: "Search chats" }).fill("no such chat title");
  await expect(list.getByText("No chat title matches.")).toBeVisible();
  await list.getByRole("searchbox", { name: "Search chats" }).fill("CHECK phone");
  await expect(list.getByRole("link", { name: /^phone check/ }).first()).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.keyboard.press("Escape");

  // Settings through the header's menu.
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("menuitem", { name: "Connectors" }).click();
  await expect(page.getByRole("heading", { name: "Connectors" })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.goto("/settings/personas");
  await expectNoHorizontalOverflow(page);
});
