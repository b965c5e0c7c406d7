// Message actions on hover or keyboard focus (wide screen): a user message offers Copy and, the last
// one, Edit; the last answer offers Copy and Regenerate. They are hidden (transparent) until their
// message is hovered or holds focus. Copy puts the message's text on the clipboard and says
// "Copied"; Edit resends the new text; Regenerate answers the same message again.
import type { Page } from "@playwright/test";

import { expect, test } from "../support/fixtures.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"], viewport: { width: 1280, height: 800 } });

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test("copy, edit and resend, regenerate from a message's hover actions", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.send("first question");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toHaveText("Echo: first question");

  const copyAnswer = chat.answerAction("Copy answer");
  await page.mouse.move(0, 0);
  await expect(copyAnswer.locator("..")).toHaveCSS("opacity", "0");
  await chat.lastAnswer().hover();
  await expect(copyAnswer.locator("..")).toHaveCSS("opacity", "1");
  await copyAnswer.click();
  await expect(chat.lastAnswer().getByText("Copied", { exact: true })).toBeAttached();
  expect(await clipboard(page)).toBe("Echo: first question");

  const copyMessage = chat.messageAction("Copy message", "first question");
  await copyMessage.focus(); // keyboard focus reveals the actions too
  await expect(copyMessage.locator("..")).toHaveCSS("opacity", "1");
  await copyMessage.press("Enter");
  await expect.poll(() => clipboard(page)).toBe("first question");

  await expect(chat.messageAction("Edit message", "first question")).toHaveCount(1);
  await chat.editLastMessage("second question");
  await expect(chat.lastAnswerText()).toHaveText("Echo: second question");
  await chat.expectLastAnswerDone();
  await expect(page.getByTestId("replaced-message")).toHaveCount(1);
  await expect(chat.supersededAnswers.filter({ hasText: "Echo: first question" })).toHaveCount(1);

  await expect(chat.answerAction("Regenerate")).toHaveCount(1);
  await chat.regenerate();
  // The regenerated answer is marked replaced, beside the edited message's first answer (inside its
  // collapsed earlier version). Waiting for that one alone raced: it was already there.
  await expect(chat.supersededAnswers.filter({ hasText: "Echo: second question" })).toHaveCount(1);
  await expect(chat.supersededAnswers).toHaveCount(2);
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toHaveText("Echo: second question");
  await expect(chat.answerAction("Regenerate", chat.supersededAnswers)).toHaveCount(0);
});
