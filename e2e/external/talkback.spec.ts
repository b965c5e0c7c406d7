// Tools that talk back, in the browser (the fake provider in echo mode calls the tool it is told to):
// builtin.ask_followup_question pauses the answer on a question with its options as buttons and a
// free-text field; a reload while it waits shows the question again (from history) and a click still
// answers it; the answer is the tool's result and the answer goes on. Stop leaves the question
// unanswerable. builtin.attempt_completion ends the answer with its result as the final Markdown text,
// and switched off in the Tools panel it is a tool change like any other.
import type { ChatPage } from "../pages/chat-page.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

const ASK = "use tool builtin_ask_followup_question";

/** A new chat whose answer is waiting on the question `args` asks. */
async function askQuestion(chat: ChatPage, args: Record<string, unknown>): Promise<void> {
  await chat.openNewChat();
  await chat.send(`${ASK} ${JSON.stringify(args)}`);
  await expect(chat.lastQuestion()).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "streaming");
}

test("a followup question is answered by clicking an option, also after a reload mid-wait", async ({ page, chat }) => {
  await askQuestion(chat, { question: "Which colour should the chart use?", options: ["Red", "Blue", "Green"] });
  await expect(chat.lastQuestion()).toContainText("Which colour should the chart use?");
  await expect(chat.questionOption("Blue")).toBeVisible();
  await expect(chat.lastAnswer()).toContainText("Waiting for your answer…");
  await saveScreenshot(page, "followup-question");

  await page.reload();
  await expect(chat.lastQuestion()).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await chat.questionOption("Blue").click();
  await expect(chat.lastQuestion()).toHaveAttribute("data-status", "answered");
  await expect(chat.lastQuestion().getByTestId("followup-answer")).toHaveText("You answered: Blue");
  await expect(chat.questionOption("Red")).toHaveCount(0);
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("returned: Blue");

  await page.reload(); // answered stays answered
  await expect(chat.lastQuestion()).toHaveAttribute("data-status", "answered", { timeout: 15_000 });
});

test("a followup question takes a free-text answer", async ({ chat }) => {
  await askQuestion(chat, { question: "What should the report be called?" });
  await expect(chat.lastQuestion().getByRole("group", { name: "Suggested answers" })).toHaveCount(0);
  await chat.answerQuestion("Quarterly numbers");
  await expect(chat.lastQuestion().getByTestId("followup-answer")).toHaveText("You answered: Quarterly numbers");
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("returned: Quarterly numbers");
});

test("Stop ends the wait: the question can no longer be answered", async ({ chat }) => {
  await askQuestion(chat, { question: "Proceed?", options: ["Yes", "No"] });
  await chat.stop();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "cancelled", { timeout: 15_000 });
  await expect(chat.lastQuestion()).toHaveAttribute("data-status", "expired");
  await expect(chat.lastQuestion()).toContainText("Not answered");
  await expect(chat.questionOption("Yes")).toHaveCount(0);
});

test("attempt_completion ends the answer with its result as the final text", async ({ chat }) => {
  await chat.openNewChat();
  const args = { result: "**All done**: the report is ready.\n\n- 3 charts\n- 1 table" };
  await chat.send(`use tool builtin_attempt_completion ${JSON.stringify(args)}`);
  await chat.expectLastAnswerDone();
  const result = chat.completionResult();
  await expect(result.locator("strong")).toHaveText("All done");
  await expect(result.getByRole("listitem")).toHaveText(["3 charts", "1 table"]);
  await expect(chat.lastAnswer()).not.toContainText("returned:"); // no further model request
  await expect(chat.lastAnswer().getByTestId("tool-call")).toHaveCount(0);
});

test("attempt_completion switched off in the Tools panel is a tool change the model no longer gets", async ({
  chat,
}) => {
  await chat.openNewChat();
  await expect(chat.toolsSummary()).toContainText("3 tools · revision 1");
  await chat.switchBuiltin("builtin.attempt_completion", false);
  await expect(chat.toolsSummary()).toContainText("2 tools · revision 2");
  await chat.send('use tool builtin_attempt_completion {"result":"Done."}');
  await chat.expectLastAnswerDone();
  await expect(chat.completionResult()).toHaveCount(0);
  await expect(chat.lastToolCard().getByTestId("tool-error")).toContainText("not available in this chat");
  await chat.switchBuiltin("builtin.attempt_completion", true);
  await expect(chat.toolsSummary()).toContainText("3 tools · revision 3");
});
