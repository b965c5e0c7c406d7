// Switching the model provider in the middle of a chat: a first exchange on Anthropic, the picker
// switched to OpenAI for a tool call, then to Gemini for another. The history is rendered for each
// new provider from the canonical transcript (the fake provider validates every request the way
// the real API does), every exchange stays after a reload, and each answer's details name the
// provider and model that wrote it.
import { expect, test } from "../support/fixtures.ts";

test("the history is kept across Anthropic → OpenAI → Gemini, tool calls included", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.chooseModel("anthropic:claude-sonnet-4-5");
  await chat.send("hello from the start");
  await expect(chat.lastAnswerText()).toHaveText("Echo: hello from the start");
  await chat.expectLastAnswerDone();
  await expect(chat.answerSummary()).toContainText("anthropic · claude-sonnet-4-5");

  await chat.chooseModel("openai:gpt-5.1");
  await chat.send('use tool builtin_current_time {"timezone":"Europe/Paris"}');
  await expect(chat.toolStatus(chat.lastToolCard())).toContainText("done");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("Tool builtin_current_time returned:");
  await expect(chat.answerSummary()).toContainText("openai · gpt-5.1");

  await chat.chooseModel("google:gemini-2.5-flash");
  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  await expect(chat.toolStatus(chat.lastToolCard())).toContainText("done");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("Asia/Tokyo");

  await page.reload();
  await expect(chat.answers).toHaveCount(3);
  await expect(page.getByTestId("user-message")).toHaveText([
    "hello from the start",
    'use tool builtin_current_time {"timezone":"Europe/Paris"}',
    'use tool builtin_current_time {"timezone":"Asia/Tokyo"}',
  ]);
  await expect(chat.answers.nth(0).getByTestId("markdown")).toHaveText("Echo: hello from the start");
  await expect(chat.answers.nth(1).getByTestId("tool-call")).toContainText("builtin.current_time");
  await expect(chat.answerSummary(chat.answers.nth(0))).toContainText("anthropic · claude-sonnet-4-5");
  await expect(chat.answerSummary(chat.answers.nth(1))).toContainText("openai · gpt-5.1");
  await expect(chat.answerSummary(chat.answers.nth(2))).toContainText("google · gemini-2.5-flash");
  await chat.pickers.expectModel("google:gemini-2.5-flash"); // the chat keeps the last choice

  const details = await chat.openTurnDetails(chat.answers.nth(1));
  await expect(details).toContainText("openai · gpt-5.1");
  await expect(details.getByTestId("turn-request")).toHaveCount(2); // the tool call, then the answer from its result
  await expect(details.getByTestId("turn-tool-call").getByRole("rowheader")).toHaveText("builtin.current_time");
  await chat.closeTurnDetails();
});
