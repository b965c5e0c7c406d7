// The README's screenshots, made fresh by every e2e run into e2e/.artifacts/screenshots/ (copy
// readme-*.png over docs/screenshots/ when the UI changes): a chat with a tool call and the Tools
// panel docked on a desktop, the same on a phone with the panel as a bottom sheet, and the dark theme.
// The animated capture of Apply now comes from its sibling, readme-apply-now.spec.ts.
import type { Page } from "@playwright/test";

import type { ChatPage } from "../pages/chat-page.ts";
import { expect, test } from "../support/fixtures.ts";

async function chatWithToolCall(page: Page, chat: ChatPage): Promise<void> {
  await chat.openNewChat();
  await chat.send("What time is it in Tokyo?");
  await chat.expectLastAnswerDone();
  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  await expect(chat.lastToolCard()).toContainText("done");
  await chat.expectLastAnswerDone();
  await chat.switchConnector("everything", true);
  await page.mouse.move(0, 0);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/.artifacts/screenshots/${name}.png` });
}

test.describe("desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the chat with the Tools panel, light and dark", async ({ page, chat }) => {
    await chatWithToolCall(page, chat);
    await chat.expandConnector("everything");
    await shoot(page, "readme-chat-desktop");

    await page.getByRole("button", { name: "Theme: System" }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await page.keyboard.press("Escape");
    await shoot(page, "readme-chat-dark");
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the chat with the Tools panel as a bottom sheet", async ({ page, chat }) => {
    await chatWithToolCall(page, chat);
    await expect(page.getByRole("dialog", { name: "Tools for this chat" })).toBeVisible();
    await shoot(page, "readme-chat-phone");
  });
});
