// Failures on the turn, as the user meets them: the model provider overloaded (an HTTP 503 on the
// request and on each retry), the provider refusing the API key (HTTP 401), and a tool call that
// fails. Each shows a clear message where it happened, says what to do next, and the chat goes on:
// Try again answers the same message, and the composer sends the next one. The failures are
// scripted on the fake provider's Gemini endpoint; the tool is the admin's server-everything.
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test("an overloaded provider fails the answer with advice and Try again, which answers it", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("google:gemini-2.5-pro");
  // The app retries a 5xx twice before any output (server/providers/retry-before-output.ts): all
  // three attempts fail.
  for (let attempt = 0; attempt < 3; attempt++)
    await scriptFakeReply(request, "google", {
      forMessage: "are you there?",
      error: { status: 503, message: "The model is overloaded." },
    });
  await chat.send("are you there?");

  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  const alert = chat.answerError();
  await expect(alert).toContainText("This answer failed.");
  await expect(alert).toContainText("try again in a moment");
  await expect(alert.getByRole("link", { name: "Open provider settings" })).toHaveCount(0); // not a settings problem
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0); // Try again stands in for it
  await saveScreenshot(page, "turn-error-overloaded");

  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(chat.lastAnswerText()).toHaveText("Echo: are you there?");
  await chat.expectLastAnswerDone();
  await expect(chat.supersededAnswers).toHaveCount(1); // the failed answer, collapsed above
  await expect(chat.answers.getByRole("alert")).toHaveCount(0);

  await chat.send("and now?");
  await expect(chat.lastAnswerText()).toHaveText("Echo: and now?");
  await chat.expectLastAnswerDone();
});

test("a rejected API key says so and points to the provider settings; the next message is answered", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("google:gemini-2.5-pro");
  await scriptFakeReply(request, "google", {
    forMessage: "hello with a bad key",
    error: { status: 401, message: "API key not valid." },
  });
  await chat.send("hello with a bad key");

  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "failed");
  const alert = chat.answerError();
  await expect(alert).toContainText("This answer failed.");
  await expect(alert).toContainText("Check the API key, or reconnect the account, in Settings → Providers");
  await expect(alert.getByRole("link", { name: "Open provider settings" })).toHaveAttribute(
    "href",
    "/settings/providers",
  );
  await expect(alert.getByRole("button", { name: "Try again" })).toBeVisible();

  // The key works again (the fake answers by echo): the composer sends the next message.
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await chat.send("hello again");
  // Gemini gets the unanswered message and this one as one user turn: the echo repeats both.
  await expect(chat.lastAnswerText()).toHaveText(/^Echo: .*hello again$/);
  await chat.expectLastAnswerDone();
  await expect(chat.answerError(chat.answers.first())).toBeVisible(); // the failure stays on its turn
  await expect(chat.answerError(chat.answers.first()).getByRole("button", { name: "Try again" })).toHaveCount(0);
});

test("a failing tool call shows its card as an error with the message, and the answer goes on", async ({
  page,
  chat,
}) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.send('use tool everything_get-sum {"a":"two","b":3}');

  const card = chat.lastToolCard();
  await expect(card).toHaveAttribute("data-status", "error");
  await expect(chat.toolStatus(card)).toHaveText(/^Status: error · \d+ ms$/);
  // The message shows on the closed card, not only in its result.
  await expect(card.getByTestId("tool-error")).toBeVisible();
  await expect(card.getByTestId("tool-error")).toContainText("Invalid arguments");
  await expect(card.getByTestId("tool-result")).toBeHidden();
  await chat.expectLastAnswerDone();
  await expect(chat.lastAnswerText()).toContainText("Tool everything_get-sum returned:");
  await saveScreenshot(page, "tool-error");

  await chat.send('use tool everything_get-sum {"a":2,"b":3}'); // the model fixes its call
  await expect(chat.toolStatus(chat.lastToolCard())).toContainText("done");
  await chat.expectLastAnswerDone();
});
