// The chat's keyboard shortcuts: ⌘/Ctrl+K focuses the chat search, ↑ in the empty composer opens the
// last message's editor, with "Enter: new line" chosen Enter adds a line and Ctrl+Enter sends, and
// Escape stops the streaming answer. Then a reload mid-answer lands on the live answer, and after
// scrolling up "Jump to latest" goes back to it.
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";

test("Ctrl+K, ArrowUp, Ctrl+Enter and Escape", async ({ page, request, chat }) => {
  await chat.openNewChat();
  await chat.send("keyboard first");
  await chat.expectLastAnswerDone();

  await chat.composer.press("Control+k");
  await expect(page.getByRole("searchbox", { name: "Search chats" })).toBeFocused();

  await chat.composer.focus();
  await chat.composer.press("ArrowUp");
  const editor = page.getByRole("textbox", { name: "Edit message", exact: true });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue("keyboard first");
  await editor.press("Escape");
  await expect(editor).toHaveCount(0);

  await page.getByRole("button", { name: "Enter = new line" }).click();
  await expect(page.getByRole("button", { name: "Enter = new line" })).toHaveAttribute("aria-pressed", "true");
  await chat.composer.fill("two");
  await chat.composer.press("End");
  await chat.composer.press("Enter");
  await chat.composer.pressSequentially("lines");
  await expect(chat.composer).toHaveValue("two\nlines");
  await chat.composer.press("Control+Enter");
  await expect(page.getByTestId("user-message").last()).toHaveText("two\nlines");
  await chat.expectLastAnswerDone();
  await page.getByRole("button", { name: "Enter = new line" }).click();

  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "keyboard stop",
    steps: [{ type: "text", text: "going ".repeat(400), chunkSize: 6 }],
    delayMs: 40,
  });
  await chat.send("keyboard stop");
  await expect(chat.lastAnswer()).toContainText("going going");
  await page.keyboard.press("Escape");
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "cancelled");
});

test("a reload mid-answer lands on the live answer; Jump to latest after scrolling up", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.send(Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n"));
  await chat.expectLastAnswerDone();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "jump test",
    steps: [{ type: "text", text: "stream ".repeat(600), chunkSize: 7 }],
    delayMs: 50,
  });
  await chat.send("jump test");
  await expect(chat.lastAnswer()).toContainText("stream stream");

  await page.reload();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "streaming");
  const distanceToEnd = () =>
    page.evaluate(() => document.documentElement.scrollHeight - (window.scrollY + window.innerHeight));
  await expect.poll(distanceToEnd).toBeLessThan(150);

  const jump = page.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toHaveCount(0);
  await page.mouse.move(600, 300);
  await page.mouse.wheel(0, -3000);
  await expect(jump).toBeVisible();
  await jump.click();
  await expect(jump).toHaveCount(0);
  await expect.poll(distanceToEnd).toBeLessThan(150);
  await chat.stop();
});
