// Live MCP connectors in the browser: the admin's server-everything (a real MCP server over stdio)
// switched on in a chat, a tool call through it, a switch while an answer streams with "Apply now",
// and the settings page (admin connector read-only and testable, private URLs and the admin's
// connector names refused).
import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { BOB, E2E_PROVIDER_NAME } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, BOB.name);
});

test("a tool of a real MCP server runs from the chat once its connector is on", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await expect(chat.toolsRevision()).toHaveText("revision 1");
  await chat.switchConnector("everything", true);
  // At least one new revision; server-everything may add more (it announces list_changed on start).
  await expect(chat.toolsRevision()).not.toHaveText("revision 1");
  await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).toBeChecked();

  await chat.send('use tool everything_get-sum {"a":2,"b":3}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText("everything.get-sum");
  await expect(card).toContainText("done");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("5");
  await chat.expectLastAnswerDone();
  await saveScreenshot(page, "chat-with-mcp-tool");
});

test("a long MCP tool reports its progress on the card while it runs", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.send('use tool everything_trigger-long-running-operation {"duration":4,"steps":4}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText(/running · [123]\/4/);
  await expect(card).toContainText("done", { timeout: 20_000 });
  await chat.expectLastAnswerDone();
});

test("switching a connector while an answer streams offers Apply now, which restarts the answer", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    steps: [{ type: "text", text: "old ".repeat(400), chunkSize: 4 }],
    delayMs: 40,
  });
  await scriptFakeReply(request, "openai", { steps: [{ type: "text", text: "Restarted with everything." }] });
  await chat.send("start slowly");
  await expect(chat.lastAnswer()).toContainText("old old");

  await chat.switchConnector("everything", true);
  await expect(page.getByText("Pending: applies on the next request of this answer.")).toBeVisible();
  await saveScreenshot(page, "apply-now-pending");
  await page.getByRole("button", { name: "Apply now" }).click();

  await expect(page.getByTestId("superseded-turn")).toContainText("Restarted");
  await expect(chat.lastAnswer()).toContainText("Restarted with everything.");
  await chat.expectLastAnswerDone();
  await saveScreenshot(page, "apply-now");
});

test("a switch mid-answer reaches the next request of the same turn; turn details show both revisions", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    steps: [
      { type: "text", text: "thinking ".repeat(150), chunkSize: 6 },
      { type: "tool-call", name: "builtin_current_time", args: { timezone: "UTC" } },
    ],
    delayMs: 40,
  });
  await scriptFakeReply(request, "openai", { steps: [{ type: "text", text: "Answered on the new tools." }] });
  await chat.send("think, then check the time");
  await expect(chat.lastAnswer()).toContainText("thinking thinking");
  await chat.switchConnector("everything", true);
  await expect(page.getByText("Pending: applies on the next request of this answer.")).toBeVisible();

  await expect(chat.lastAnswer()).toContainText("Answered on the new tools.");
  await chat.expectLastAnswerDone();
  await chat.lastAnswer().getByRole("button", { name: "Details" }).click();
  const details = page.getByRole("dialog", { name: "Turn details" });
  const requests = details.getByTestId("turn-request");
  await expect(requests).toHaveCount(2);
  await expect(requests.first()).toContainText("tools revision 1 ");
  await expect(requests.first().getByTestId("request-tool-names")).not.toContainText("everything_");
  await expect(requests.last()).not.toContainText("tools revision 1 ");
  await expect(requests.last().getByTestId("request-tool-names")).toContainText("everything_get-sum");
  await expect(details).toContainText("builtin.current_time");
  await saveScreenshot(page, "turn-details");
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);
});

test("settings list the admin connector read-only, test it, and refuse private URLs and the admin's names", async ({
  page,
}) => {
  await page.goto("/settings/connectors");
  const everything = page.getByRole("listitem", { name: "everything" });
  await expect(everything).toContainText("set up by the administrator");
  await expect(everything.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await everything.getByRole("button", { name: "Test connection" }).click();
  await expect(everything.getByTestId("connector-check")).toContainText("get-sum");
  await saveScreenshot(page, "settings-connectors");

  await page.getByRole("button", { name: "Add connector" }).click();
  await page.getByLabel("Name").fill("sneaky");
  await page.getByLabel("URL").fill("http://127.0.0.1:9/mcp");
  await page.getByRole("button", { name: "Add connector" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "refused" })).toContainText("private");

  // Its tools would be named like the admin's "everything" tools: refused whatever the case.
  await page.getByLabel("Name").fill("Everything");
  await page.getByLabel("URL").fill("https://93.184.215.14/mcp");
  await page.getByRole("button", { name: "Add connector" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "administrator" })).toContainText(
    '"Everything" is the name of a connector your administrator set up',
  );
});
