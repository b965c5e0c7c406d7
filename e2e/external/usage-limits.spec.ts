// Per-user limits on the operator's keys, as a user meets them (the "external-limits" instance:
// USER_REQUESTS_PER_MINUTE=3, USER_TOKENS_PER_DAY=100000). The chat shows what is left under the
// model picker; a send over a limit is refused in words, the typed message stays in the composer
// and nothing is stored. Carol and Dan are signed in only here, so their allowance is theirs alone
// (usage counts per user and UTC day, so a retry of this file would start where the first run left).
import { CAROL, DAN } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";

test.describe.configure({ retries: 0 });

test.describe("the day's tokens", () => {
  test.use({ account: CAROL });

  test("are shown, counted per request, and a send over them is refused in words", async ({ page, request, chat }) => {
    await chat.openNewChat();
    await chat.chooseModel("anthropic:claude-sonnet-4-5");
    const meter = page.getByTestId("usage-meter");
    await expect(meter).toHaveText(
      "This server's keys: 100,000 of 100,000 tokens left today (resets 00:00 UTC) · 3 of 3 requests left this minute",
    );

    await scriptFakeReply(request, "anthropic", {
      forMessage: "spend nearly all of it",
      steps: [{ type: "text", text: "That was expensive." }],
      usage: { inputTokens: 99_990, outputTokens: 10 },
    });
    await chat.send("spend nearly all of it");
    await expect(chat.lastAnswer()).toContainText("That was expensive.");
    await chat.expectLastAnswerDone();
    await expect(meter).toContainText("0 of 100,000 tokens left today");

    await chat.composer.fill("one more, please");
    await chat.composer.press("Enter");
    const alert = page.getByRole("alert").filter({ hasText: "tokens on this server's keys" });
    await expect(alert).toHaveText(
      /^You have used today's 100,000 tokens on this server's keys\. The allowance starts again at 00:00 UTC \(in \d+ (min|h \d+ min)\); until then, pick a model from your own account \(Settings → Providers\)\.$/,
    );
    await expect(chat.composer).toHaveValue("one more, please");
    await expect(page.getByTestId("user-message")).toHaveCount(1);
    await expect(chat.answers).toHaveCount(1);
  });
});

test.describe("requests per minute", () => {
  test.use({ account: DAN });

  test("count down as messages are sent, and the fourth in a minute is refused with the wait", async ({
    page,
    chat,
  }) => {
    await chat.openNewChat();
    await chat.chooseModel("anthropic:claude-sonnet-4-5");
    const meter = page.getByTestId("usage-meter");
    await expect(meter).toContainText("3 of 3 requests left this minute");
    for (const [index, text] of ["first", "second", "third"].entries()) {
      await chat.send(text);
      await expect(chat.lastAnswer()).toContainText(`Echo: ${text}`);
      await chat.expectLastAnswerDone();
      await expect(meter).toContainText(`${2 - index} of 3 requests left this minute`);
    }
    await chat.composer.fill("fourth");
    await chat.composer.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "in the last minute" })).toHaveText(
      /^You have sent 3 requests to this server's models in the last minute, the most allowed per person\. Try again in ([1-9]|[1-5]\d|60) s\.$/,
    );
    await expect(chat.composer).toHaveValue("fourth");
    await expect(chat.answers).toHaveCount(3);
  });
});
