// A signed-in user chats: streamed answers, a tool call with its result, stop mid-answer, a reload
// mid-answer that resumes the stream without duplicating text, and editing the last message. The model providers are the
// fake provider server speaking the real Anthropic / OpenAI / Gemini wire formats.
import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { ALICE, E2E_PROVIDER_NAME } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, ALICE.name);
});

test("a message gets a streamed answer", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.send("hello there");
  await expect(chat.lastAnswer()).toContainText("Echo: hello there");
  await chat.expectLastAnswerDone();
  await expect(page.getByRole("heading", { name: "hello there" })).toBeVisible(); // titled from the first message
});

test("a tool call shows as a card with its result, and the model answers from it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText("builtin.current_time");
  await expect(card).toContainText("done");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("Asia/Tokyo");
  await expect(chat.lastAnswer()).toContainText("Tool builtin_current_time returned:");
  await chat.expectLastAnswerDone();
});

test("stop ends the answer mid-stream and keeps what was written", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    steps: [{ type: "text", text: "slow ".repeat(400), chunkSize: 5 }],
    delayMs: 30,
  });
  await chat.send("talk slowly");
  await expect(chat.lastAnswer()).toContainText("slow slow");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "cancelled");
  await expect(chat.lastAnswer()).toContainText("Stopped.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

test("reloading mid-answer resumes the stream with no duplicated text", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.chooseModel("google:gemini-2.5-pro");
  const words = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
  await scriptFakeReply(request, "google", { steps: [{ type: "text", text: words, chunkSize: 6 }], delayMs: 40 });
  await chat.send("count for me");
  await expect(chat.lastAnswer()).toContainText("w3");
  await page.reload();
  await chat.expectLastAnswerDone();
  const text = (await chat.lastAnswer().locator("p").first().textContent()) ?? "";
  expect(text).toBe(words);
});

test("editing the last message replaces it and its answer with an answer to the new text", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.send("first question");
  await chat.expectLastAnswerDone();
  await chat.send("second question");
  await expect(chat.lastAnswer()).toContainText("Echo: second question");
  await chat.expectLastAnswerDone();
  await expect(page.getByRole("button", { name: "Edit message" })).toHaveCount(1); // the last message only

  await chat.editLastMessage("second question, edited");
  await expect(chat.lastAnswer()).toContainText("Echo: second question, edited");
  await chat.expectLastAnswerDone();

  const replaced = page.getByTestId("replaced-message");
  await expect(replaced).toHaveCount(1);
  await expect(replaced).toContainText("Edited");
  await expect(replaced.getByText("second question", { exact: true })).toBeHidden(); // collapsed
  await expect(chat.answers).toHaveCount(2); // the replaced answer is not one of the live ones

  await page.reload(); // the same from the stored history
  await expect(page.getByTestId("replaced-message")).toHaveCount(1);
  await expect(page.getByTestId("user-message")).toHaveText(["first question", "second question, edited"]);
  await replaced.getByText("Edited — the earlier version of this message").click();
  await expect(replaced.getByText("second question", { exact: true })).toBeVisible();
  await replaced.getByText("Its answer").click();
  await expect(replaced.getByTestId("markdown")).toHaveText("Echo: second question");
});
