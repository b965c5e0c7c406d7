// Tool approvals in the browser: a tool of the admin's server-everything set to "Ask" in the Tools
// panel pauses the answer on its call until the user decides on the card. Approve runs the call and
// the model answers from its result; Deny gives the model the denial; a reload while waiting shows
// the prompt again (from history) and it still works.
import type { ChatPage } from "../pages/chat-page.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

const SUM_CALL = 'use tool everything_get-sum {"a":2,"b":3}';
const SUM_TOOL = "everything.get-sum";

/** A new chat with everything on and get-sum asking first, and the sum call waiting for approval. */
async function askForSum(chat: ChatPage): Promise<void> {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.setToolPolicy("everything", "get-sum", "ask");
  await chat.send(SUM_CALL);
  await expect(chat.lastToolCard()).toContainText("waiting for approval");
  await expect(chat.approveButton(SUM_TOOL)).toBeVisible();
  await expect(chat.denyButton(SUM_TOOL)).toBeVisible();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "streaming");
}

test("an ask-first tool waits for Approve, then runs and the model answers from its result", async ({ page, chat }) => {
  await askForSum(chat);
  await saveScreenshot(page, "tool-approval");
  await chat.approveButton(SUM_TOOL).click();

  const card = chat.lastToolCard();
  await expect(card).toContainText("approved");
  await expect(card).toContainText("done");
  await expect(chat.approveButton(SUM_TOOL)).toHaveCount(0);
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("The sum of 2 and 3 is 5.");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("Tool everything_get-sum returned:");
  await expect(chat.lastAnswerText()).toContainText("The sum of 2 and 3 is 5.");
});

test("Deny gives the model the denial instead of running the call", async ({ page, chat }) => {
  await askForSum(chat);
  await chat.denyButton(SUM_TOOL).click();

  const card = chat.lastToolCard();
  await expect(card).toHaveAttribute("data-status", "denied");
  await expect(chat.toolStatus(card)).toContainText("denied");
  await expect(chat.denyButton(SUM_TOOL)).toHaveCount(0);
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("Tool everything_get-sum returned:");
  await expect(chat.lastAnswerText()).toContainText("denied");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("The user denied this tool call.");
  await expect(card.getByTestId("tool-result")).not.toContainText("The sum of");
  await saveScreenshot(page, "tool-denied");
});

test("after a reload while waiting, the prompt is still there and Approve still works", async ({ page, chat }) => {
  await askForSum(chat);
  await page.reload();

  await expect(chat.lastToolCard()).toContainText("waiting for approval");
  await chat.approveButton(SUM_TOOL).click();
  await expect(chat.lastToolCard()).toContainText("done");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("The sum of 2 and 3 is 5.");
});
