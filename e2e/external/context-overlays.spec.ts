// Context overlays in the browser: a message excluded while an answer streams is a pending change
// with Apply now (as a change of the tools is); the restarted answer's turn details list what its
// request left out. A pinned note reaches the model on the next request (the fake provider echoes
// the user's text, pinned note first) and turn details say so; a tool result replaced by a summary
// and a tool round excluded show as such on the card and in turn details. The stored chat is kept:
// a reload shows everything, dimmed where excluded.
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";
import { ContextOverlays } from "../pages/context-overlays.ts";

test("excluding a message mid-answer is pending until Apply now; turn details show it", async ({
  page,
  request,
  chat,
}) => {
  const overlays = new ContextOverlays(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await chat.send("Remember: the code word is ZEBRA-42.");
  await expect(chat.lastAnswer()).toContainText("Echo: Remember: the code word is ZEBRA-42.");
  await chat.expectLastAnswerDone();

  const question = "Overlays: what is the code word?";
  await scriptFakeReply(request, "openai", {
    forMessage: question,
    steps: [{ type: "text", text: "old ".repeat(800), chunkSize: 4 }], // long enough for a loaded machine
    delayMs: 40,
  });
  await chat.send(question);
  await expect(chat.lastAnswer()).toContainText("old old");

  const remembered = overlays.userMessage("Remember: the code word is ZEBRA-42.");
  await overlays.exclude(remembered);
  await expect(overlays.pendingNotice).toBeVisible({ timeout: 15_000 });
  await scriptFakeReply(request, "openai", {
    forMessage: question,
    steps: [{ type: "text", text: "I was told none." }],
  });
  await overlays.applyNow();

  await expect(chat.lastAnswer()).toContainText("I was told none.", { timeout: 15_000 });
  await chat.expectLastAnswerDone();
  await expect(chat.supersededAnswers).toHaveCount(1);
  const details = await chat.openTurnDetails();
  await expect(overlays.requestOverlays(details)).toContainText(
    "Excluded: user message “Remember: the code word is ZEBRA-42.”",
  );
  await chat.closeTurnDetails();

  await page.reload(); // stored beside the history: still excluded, still in the chat
  await expect(overlays.excludedLabel(overlays.userMessage("Remember: the code word is ZEBRA-42."))).toBeVisible();
  await overlays.includeAgain(overlays.userMessage("Remember: the code word is ZEBRA-42."));
});

test("a pinned note reaches every next request until unpinned", async ({ page, chat }) => {
  const overlays = new ContextOverlays(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await overlays.pin("Answer like a pirate.");
  await chat.send("Pinned: hello there");
  // The fake echoes the last user message as sent: the pinned note, then the user's words.
  await expect(chat.lastAnswer()).toContainText("Pinned note from the user (kept in context): Answer like a pirate.");
  await expect(chat.lastAnswer()).toContainText("hello there");
  await chat.expectLastAnswerDone();
  const details = await chat.openTurnDetails();
  await expect(overlays.requestOverlays(details)).toContainText("Pinned: Answer like a pirate.");
  await chat.closeTurnDetails();

  await page.reload();
  await expect(overlays.pinnedNotes).toHaveText(/Answer like a pirate\./);
  await overlays.unpin("Answer like a pirate.");
  await chat.send("Pinned: and now?");
  await expect(chat.lastAnswer()).toContainText("Echo: Pinned: and now?");
  await expect(chat.lastAnswer()).not.toContainText("pirate");
});

test("a tool result replaced by a summary, and a tool round excluded, with the card", async ({
  page,
  request,
  chat,
}) => {
  const overlays = new ContextOverlays(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await chat.send('use tool builtin_current_time {"timezone":"UTC"}');
  await expect(chat.lastAnswer()).toContainText("Tool builtin_current_time returned:");
  await chat.expectLastAnswerDone();
  await overlays.replaceResult(chat.lastToolCard(), "It was noon in UTC.");

  await chat.send('use tool builtin_current_time {"timezone":"Asia/Tokyo"}');
  await chat.expectLastAnswerDone();
  let details = await chat.openTurnDetails();
  await expect(overlays.requestOverlays(details).first()).toContainText("Replaced: result of builtin.current_time");
  await chat.closeTurnDetails();

  await overlays.excludeRound(chat.lastToolCard());
  await overlays.exclude(overlays.assistantMessage("Tool builtin_current_time returned:").last());
  await overlays.pin("Times are in UTC unless asked.");
  await scriptFakeReply(request, "openai", {
    forMessage: "Overlays: what did you find?",
    steps: [{ type: "text", text: "It was noon in UTC, as your summary says." }],
  });
  await chat.send("Overlays: what did you find?");
  await chat.expectLastAnswerDone();
  details = await chat.openTurnDetails();
  const lines = overlays.requestOverlays(details).first();
  await expect(lines).toContainText("Excluded: tool round builtin.current_time");
  await expect(lines).toContainText("Replaced: result of builtin.current_time");
  await expect(lines).toContainText("Pinned: Times are in UTC unless asked.");
  await chat.closeTurnDetails();
  await saveScreenshot(page, "context-overlays");
});

test("another tab of the chat follows the overlays live", async ({ page, chat }) => {
  const overlays = new ContextOverlays(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await chat.send("Live: first message");
  await chat.expectLastAnswerDone();

  const other = await page.context().newPage();
  await other.goto(page.url());
  const elsewhere = new ContextOverlays(other);
  await expect(elsewhere.userMessage("Live: first message")).toBeVisible();

  await overlays.exclude(overlays.assistantMessage("Echo: Live: first message"));
  await overlays.pin("Seen in both tabs.");
  await expect(elsewhere.excludedLabel(elsewhere.assistantMessage("Echo: Live: first message"))).toBeVisible({
    timeout: 15_000,
  });
  await expect(elsewhere.pinnedNotes).toHaveText(/Seen in both tabs\./, { timeout: 15_000 });
  await elsewhere.unpin("Seen in both tabs.");
  await expect(overlays.pinnedNotes).toHaveCount(0, { timeout: 15_000 });
  await other.close();
});
