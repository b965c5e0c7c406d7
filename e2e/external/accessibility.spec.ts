// An accessibility scan (axe-core) of the main pages: sign-in, the chat list, a chat with a tool
// call, the Tools panel open with a connector expanded (its switches and policy selects), the chat
// sidebar's menu with its rename field and delete confirmation, connector and
// persona settings, in the light and the dark theme (chosen with the header's
// theme menu, kept across reloads). Serious or critical violations fail the test.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import type { ChatPage } from "../pages/chat-page.ts";
import { ALICE, E2E_PROVIDER_NAME } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
  expect(serious).toEqual([]);
}

/** The Tools panel open, a connector expanded (its switches and closed policy selects). */
async function expectToolsPanelClean(page: Page, chat: ChatPage): Promise<void> {
  await chat.switchConnector("everything", true);
  await chat.expandConnector("everything");
  await expectNoSeriousViolations(page);
}

test.describe("signed out", () => {
  test.use({ account: null });

  test("the sign-in page and the chat list have no serious or critical violations", async ({ page, signIn }) => {
    await page.goto("/sign-in");
    await expectNoSeriousViolations(page);
    await signIn.signIn(E2E_PROVIDER_NAME, ALICE.name);
    await expectNoSeriousViolations(page);
  });
});

/**
 * Each scan runs axe in the page and then in a page of its own (axe's finishRun): on a loaded
 * 2-core box one takes 3–8 s, and these tests scan seven and six times (52–60 s measured with
 * another spec beside them, before and after the API lane alike).
 */
const MANY_SCANS_TIMEOUT_MS = 120_000;

test("the main pages have no serious or critical accessibility violations", async ({ page, chat, sidebar }) => {
  test.setTimeout(MANY_SCANS_TIMEOUT_MS);
  await chat.openNewChat();
  await chat.send('use tool builtin_current_time {"timezone":"UTC"}');
  await chat.expectLastAnswerDone();
  await expectNoSeriousViolations(page);
  await expectToolsPanelClean(page, chat);

  // The chat list's menu open, then its rename field and its delete confirmation.
  await sidebar.openCurrentActions();
  await expect(page.getByRole("menu")).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole("menuitem", { name: "Rename" }).click();
  await expect(sidebar.list.getByRole("textbox", { name: "Chat title" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Escape");
  await sidebar.openCurrentActions();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(sidebar.list.getByRole("button", { name: "Keep" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await sidebar.list.getByRole("button", { name: "Keep" }).click();

  await page.goto("/settings/connectors");
  await expect(page.getByRole("heading", { name: "Connectors" })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.goto("/settings/personas");
  await expectNoSeriousViolations(page);
});

test("the dark theme is kept across reloads and its pages have no serious violations", async ({ page, chat }) => {
  test.setTimeout(MANY_SCANS_TIMEOUT_MS);
  await page.getByRole("button", { name: "Theme: System" }).click();
  await page.getByRole("menuitemradio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Theme: Dark" })).toBeVisible();

  // Set before the first paint: the class is already there when the document has just been parsed.
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await expectNoSeriousViolations(page);

  await chat.openNewChat();
  await chat.send('use tool builtin_current_time {"timezone":"UTC"}');
  await chat.expectLastAnswerDone();
  await chat.lastToolCard().locator("summary").click();
  await expectNoSeriousViolations(page);
  await expectToolsPanelClean(page, chat);
  await saveScreenshot(page, "chat-dark");

  await page.getByRole("button", { name: "Details" }).last().click();
  await expect(page.getByRole("dialog", { name: "Turn details" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Escape");

  for (const path of ["/settings/connectors", "/settings/personas"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await expectNoSeriousViolations(page);
  }

  await page.getByRole("button", { name: "Theme: Dark" }).click();
  await page.getByRole("menuitemradio", { name: "Light" }).click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
});
