// A signed-in user chats: streamed answers, a tool call with its result and its duration in the turn
// details (with each request's tokens and time, also after a reload), stop mid-answer, a reload mid-answer that resumes the stream without duplicating text,
// editing the last message, regenerating the last answer, the composer's keys, and a code block's
// copy button. The model providers are the fake provider server speaking the real Anthropic /
// OpenAI / Gemini wire formats.
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";

test("a message gets a streamed answer", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.send("hello there");
  await expect(chat.lastAnswer()).toContainText("Echo: hello there");
  await chat.expectLastAnswerDone();
  await expect(page.getByRole("heading", { name: "hello there" })).toBeVisible(); // titled from the first message
});

test("a tool call shows as a card with its result, and the turn details give its duration", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  const card = chat.lastToolCard();
  await expect(card).toContainText("builtin.current_time");
  await expect(chat.toolStatus(card)).toHaveText(/^Status: done · \d+ ms$/);
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("Asia/Tokyo");
  await expect(chat.lastAnswer()).toContainText("Tool builtin_current_time returned:");
  await chat.expectLastAnswerDone();

  const details = await chat.openTurnDetails();
  const call = details.getByTestId("turn-tool-call");
  await expect(call).toHaveCount(1);
  await expect(call.getByRole("rowheader")).toHaveText("builtin.current_time");
  await expect(call.getByRole("cell").first()).toHaveText("done");
  await expect(call.getByTestId("tool-duration")).toHaveText(/^\d+ ms$/);
  await expect(details.getByRole("columnheader", { name: "Duration" })).toBeVisible();
  // Each request: its tokens and time (the tool round's request, then the answer's).
  const requests = details.getByTestId("turn-request");
  await expect(requests).toHaveCount(2);
  for (const request of await requests.all()) {
    await expect(request.getByTestId("request-tokens")).toHaveText(/^\d+ in \/ \d+ out$/);
    await expect(request.getByTestId("request-duration")).toHaveText(/^\d+ ms$/);
  }
  await chat.closeTurnDetails();

  // After a reload, all of it is read back from the server.
  await page.reload();
  const reloaded = await chat.openTurnDetails();
  await expect(reloaded.getByTestId("turn-tool-call").getByTestId("tool-duration")).toHaveText(/^\d+ ms$/);
  await expect(reloaded.getByTestId("request-tokens").first()).toHaveText(/^\d+ in \/ \d+ out$/);
  await expect(reloaded.getByTestId("request-duration").last()).toHaveText(/^\d+ ms$/);
  await chat.closeTurnDetails();
});

test("stop ends the answer mid-stream and keeps what was written", async ({ page, request, chat }) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "talk slowly",
    steps: [{ type: "text", text: "slow ".repeat(400), chunkSize: 5 }],
    delayMs: 30,
  });
  await chat.send("talk slowly");
  await expect(chat.lastAnswer()).toContainText("slow slow");
  await chat.stop();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "cancelled");
  await expect(chat.lastAnswer()).toContainText("Stopped.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

test("reloading mid-answer resumes the stream with no duplicated text", async ({ page, request, chat }) => {
  await chat.openNewChat();
  await chat.chooseModel("google:gemini-2.5-pro");
  const words = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
  await scriptFakeReply(request, "google", {
    forMessage: "count for me",
    steps: [{ type: "text", text: words, chunkSize: 6 }],
    delayMs: 40,
  });
  await chat.send("count for me");
  await expect(chat.lastAnswer()).toContainText("w3");
  await page.reload();
  await chat.expectLastAnswerDone();
  const text = (await chat.lastAnswer().locator("p").first().textContent()) ?? "";
  expect(text).toBe(words);
});

test("editing the last message replaces it and its answer with an answer to the new text", async ({ page, chat }) => {
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

test("Regenerate replaces the last answer: the old one collapses above a newly streamed one", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await chat.send("tell me a fact");
  await expect(chat.lastAnswerText()).toHaveText("Echo: tell me a fact");
  await chat.expectLastAnswerDone();

  await scriptFakeReply(request, "openai", {
    forMessage: "tell me a fact",
    steps: [{ type: "text", text: "A fresh answer, written word by word.", chunkSize: 3 }],
    delayMs: 40,
  });
  await chat.regenerate();
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "streaming");
  await expect(chat.lastAnswerText()).toHaveText("A fresh answer, written word by word.");
  await chat.expectLastAnswerDone();

  const superseded = chat.supersededAnswers;
  await expect(superseded).toHaveCount(1);
  await expect(superseded.locator("summary")).toHaveText("Restarted with revision 1");
  await expect(superseded.getByText("Echo: tell me a fact")).toBeHidden(); // collapsed
  await expect(chat.answers).toHaveCount(1);
  await expect(page.getByTestId("user-message")).toHaveCount(1); // the same question, answered again

  await page.reload();
  await expect(chat.supersededAnswers).toHaveCount(1);
  await chat.supersededAnswers.locator("summary").click();
  await expect(chat.supersededAnswers.getByText("Echo: tell me a fact")).toBeVisible();
  await expect(chat.lastAnswerText()).toHaveText("A fresh answer, written word by word.");
});

test("Shift+Enter adds a line to the message, Enter sends it", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.composer.fill("first line");
  await chat.composer.press("Shift+Enter");
  await chat.composer.pressSequentially("second line");
  await expect(chat.composer).toHaveValue("first line\nsecond line");
  await expect(page.getByTestId("user-message")).toHaveCount(0); // nothing sent yet

  await chat.composer.press("Enter");
  await expect(page.getByTestId("user-message")).toHaveCount(1);
  expect(await page.getByTestId("user-message").textContent()).toBe("first line\nsecond line");
  await expect(chat.composer).toHaveValue("");
  await expect(chat.lastAnswer()).toContainText("Echo: first line");
  await chat.expectLastAnswerDone();
});

test.describe("with clipboard access", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("a code block's Copy button copies its code", async ({ page, chat }) => {
    await chat.openNewChat();
    const code = 'const answer = 42;\nconsole.log("the answer", answer);';
    await chat.send(`show code\n\n\`\`\`js\n${code}\n\`\`\``);
    await chat.expectLastAnswerDone();
    const copy = chat.lastAnswer().getByRole("button", { name: "Copy code" });
    await copy.click();
    await expect(chat.lastAnswer().getByRole("button", { name: "Copied" })).toBeVisible();
    expect((await page.evaluate(() => navigator.clipboard.readText())).trimEnd()).toBe(code);
    await expect(chat.lastAnswer().getByRole("button", { name: "Copy code" })).toBeVisible(); // resets
    // Highlighted once the highlighter (fetched when a message first has code) arrived; on a fresh page too.
    const keyword = chat.lastAnswer().locator("code .hljs-keyword", { hasText: "const" }).first();
    await expect(keyword).toBeVisible();
    await page.reload();
    await expect(keyword).toBeVisible();
  });
});
