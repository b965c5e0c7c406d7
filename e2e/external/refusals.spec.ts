// Refusals a user can meet, each with its own status and words in the production build. A tab whose
// live event stream is cut (the network dropped it) still shows an old state: it can send while an
// answer is being written elsewhere (409 conflict:turn), Regenerate an answer that is no longer the
// latest (409), or write to a chat deleted in another tab (404 not_found:session). The server refuses
// each; the page says why, in place of "Something went wrong", and keeps the text typed.
import type { Page } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { ALICE } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { trpcMutation } from "../support/trpc-http.ts";

/** The chat open in a second tab whose live event stream never connects (a dropped network). */
async function openStaleTab(
  openAs: (account: typeof ALICE) => Promise<Page>,
  url: string,
): Promise<{ page: Page; chat: ChatPage; alert: ReturnType<Page["getByRole"]> }> {
  const page = await openAs(ALICE);
  await page.route("**/api/chats/*/events**", (route) => route.abort("connectionfailed"));
  await page.goto(url);
  const chat = new ChatPage(page);
  await expect(chat.composer).toBeVisible();
  // The page's own alerts with text (Next.js keeps an empty route announcer with role="alert").
  const alert = page.getByRole("alert").filter({ hasText: /\S/ }).filter({ hasNotText: "This answer failed" });
  return { page, chat, alert };
}

test("a second send while an answer is being written says so (409), and keeps the text", async ({
  page,
  chat,
  request,
  openAs,
}) => {
  await chat.openNewChat();
  const stale = await openStaleTab(openAs, page.url());
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "a slow answer please",
    steps: [{ type: "text", text: "slow ".repeat(200), chunkSize: 5 }],
    delayMs: 30,
  });
  await chat.send("a slow answer please");
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "streaming");

  await stale.chat.composer.fill("me too");
  await stale.chat.composer.press("Enter");
  await expect(stale.alert).toHaveText(
    "An answer is still being written in this chat. Stop it or wait for it to finish.",
  );
  await expect(stale.chat.composer).toHaveValue("me too");

  const direct = await trpcMutation(page.request, "chat.send", {
    sessionId: page.url().split("/").pop(),
    text: "again",
  });
  expect(direct.status).toBe(409);
  expect(direct.error?.data?.appCode).toBe("conflict:turn");
  await chat.expectLastAnswerDone();
});

test("Regenerate on an answer that is no longer the latest says only the latest can be (409)", async ({
  page,
  chat,
  openAs,
}) => {
  await chat.openNewChat();
  await chat.send("first question");
  await chat.expectLastAnswerDone();
  const stale = await openStaleTab(openAs, page.url());
  await expect(stale.page.getByRole("button", { name: "Regenerate" })).toBeVisible();

  await chat.send("second question");
  await chat.expectLastAnswerDone();
  await stale.page.getByRole("button", { name: "Regenerate" }).click();
  await expect(stale.alert).toHaveText("Only the latest turn of a chat can be restarted.");
});

test("writing to a chat deleted in another tab says it is gone (404), and keeps the text", async ({
  page,
  chat,
  openAs,
}) => {
  await chat.openNewChat();
  const sessionId = page.url().split("/").pop()!;
  const stale = await openStaleTab(openAs, page.url());
  const removed = await trpcMutation(page.request, "session.delete", { id: sessionId });
  expect(removed.status).toBe(200);

  await stale.chat.composer.fill("hello?");
  await stale.chat.composer.press("Enter");
  await expect(stale.alert).toHaveText("That chat session does not exist or is not yours.");
  await expect(stale.chat.composer).toHaveValue("hello?");
  const direct = await trpcMutation(page.request, "chat.send", { sessionId, text: "hello?" });
  expect(direct.status).toBe(404);
  expect(direct.error?.data?.appCode).toBe("not_found:session");
});
