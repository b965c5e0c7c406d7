// No horizontal overflow, at phone width (390 × 844) and at 1280 × 800, with the drawers open too:
// the Tools panel (a bottom sheet on the phone, docked at 1280) with a connector expanded, and the
// chat list sheet on the phone. The document is never wider than the window.
import type { Page } from "@playwright/test";

import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the chat, the Tools panel and the chat list never scroll sideways", async ({ page, chat }) => {
      await chat.openNewChat();
      await chat.send(`overflow ${"w".repeat(150)} use_a_long.tool/name_with_parts`);
      await chat.expectLastAnswerDone();
      await expectNoHorizontalOverflow(page);

      await chat.switchConnector("everything", true);
      await chat.expandConnector("everything");
      await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, `tools-panel-${viewport.width}`);

      if (viewport.width < 768) {
        await page.keyboard.press("Escape");
        await expect(chat.toolsPanel()).toHaveCount(0);
        await page.getByRole("button", { name: "Chats", exact: true }).click();
        await expect(page.getByRole("dialog", { name: "Chats" })).toBeVisible();
        await expectNoHorizontalOverflow(page);
      }
    });
  });
}
