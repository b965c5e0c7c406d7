// Live MCP connectors in the browser: the admin's server-everything (a real MCP server over stdio)
// switched on in a chat, a tool call through it (a long output truncated with "Show all"), a long
// tool's progress and its cancellation by Stop, a switch while an answer streams with "Apply now"
// (the replaced answer collapsed above its replacement, labelled with the new revision; a tool call
// that had finished carried over, not run again) or "Keep for next request", and the settings page (admin connector read-only and testable, private URLs
// and the admin's connector names refused, a user's own connector edited and removed).
import { BOB } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test.use({ account: BOB });

/** A public address (TEST-NET-3) for user connectors that are only saved, never connected to. */
const UNREACHABLE_URL = (host: number) => `https://203.0.113.${host}/mcp`;

test("a tool of a real MCP server runs from the chat once its connector is on", async ({ page, chat }) => {
  await chat.openNewChat();
  await expect(chat.toolsRevision()).toHaveText("revision 1");
  await chat.switchConnector("everything", true);
  // At least one new revision; server-everything may add more (it announces list_changed on start).
  await expect(chat.toolsRevision()).not.toHaveText("revision 1");
  await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).toBeChecked();

  await chat.send('use tool everything_get-sum {"a":2,"b":3}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText("everything.get-sum");
  await expect(chat.toolStatus(card)).toContainText("done");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("5");
  await chat.expectLastAnswerDone();
  await saveScreenshot(page, "chat-with-mcp-tool");
});

test("a long tool output is cut on the card, and Show all shows the rest", async ({ chat }) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  const message = `${"0123456789".repeat(250)}END-OF-OUTPUT`;
  await chat.send(`use tool everything_echo {"message":"${message}"}`);
  const card = chat.lastToolCard();
  await expect(chat.toolStatus(card)).toContainText("done");
  await chat.expectLastAnswerDone();

  await card.locator("summary").click();
  const result = card.getByTestId("tool-result");
  await expect(result).toContainText("Echo: 0123456789");
  await expect(result).not.toContainText("END-OF-OUTPUT");
  const showAll = result.getByRole("button", { name: /^Show all \(\d+ more characters\)$/ });
  await expect(showAll).toHaveAttribute("aria-expanded", "false");
  await showAll.click();
  await expect(result).toContainText("END-OF-OUTPUT");
  await expect(result.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
});

test("a long MCP tool reports its progress on the card while it runs", async ({ chat }) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.send('use tool everything_trigger-long-running-operation {"duration":4,"steps":4}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(chat.toolStatus(card)).toContainText(/running · [123]\/4/);
  await expect(chat.toolStatus(card)).toContainText("done", { timeout: 20_000 });
  await chat.expectLastAnswerDone();
});

test("Stop during a long tool call marks its card cancelled, also after a reload", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.send('use tool everything_trigger-long-running-operation {"duration":30,"steps":30}');
  const card = chat.lastToolCard();
  await expect(chat.toolStatus(card)).toContainText(/running · \d+\/30/);
  await chat.stop();

  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "cancelled");
  await expect(card).toHaveAttribute("data-status", "cancelled");
  await expect(chat.toolStatus(card)).toHaveText("Status: cancelled");
  await page.reload();
  await expect(chat.toolStatus(chat.lastToolCard())).toHaveText("Status: cancelled");
  const details = await chat.openTurnDetails();
  await expect(details.getByTestId("turn-tool-call").getByRole("cell").first()).toHaveText("cancelled");
});

test("switching a connector while an answer streams offers Apply now, which restarts the answer", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "start slowly",
    steps: [{ type: "text", text: "old ".repeat(800), chunkSize: 4 }], // long enough for a loaded machine
    delayMs: 40,
  });
  await chat.openTools(); // the panel open before the answer starts: the switch lands mid-answer
  await chat.send("start slowly");
  await expect(chat.lastAnswer()).toContainText("old old");

  await chat.switchConnector("everything", true);
  await expect(chat.pendingNotice).toBeVisible();
  await saveScreenshot(page, "apply-now-pending");
  await scriptFakeReply(request, "openai", {
    forMessage: "start slowly",
    steps: [{ type: "text", text: "Restarted with everything." }],
  });
  await page.getByRole("button", { name: "Apply now" }).click();

  await expect(chat.lastAnswer()).toContainText("Restarted with everything.");
  await chat.expectLastAnswerDone();
  const superseded = chat.supersededAnswers;
  await expect(superseded).toHaveCount(1);
  await expect(superseded.getByText("old old")).toBeHidden(); // collapsed

  // The replacement's details: every request on a revision after the one the old answer had.
  const details = await chat.openTurnDetails();
  const revision = Number(await details.getByTestId("turn-request").first().getAttribute("data-revision"));
  expect(revision).toBeGreaterThan(1);
  await expect(details.getByTestId("request-tool-names").first()).toContainText("everything_get-sum");
  await chat.closeTurnDetails();

  await expect(superseded.locator("summary")).toHaveText(`Restarted with revision ${revision}`);
  const [oldBox, newBox] = [await superseded.boundingBox(), await chat.lastAnswer().boundingBox()];
  expect(oldBox!.y + oldBox!.height).toBeLessThanOrEqual(newBox!.y); // above its replacement
  await saveScreenshot(page, "apply-now");

  await page.reload(); // the same from the stored history
  await expect(chat.supersededAnswers.locator("summary")).toHaveText(`Restarted with revision ${revision}`);
  await chat.supersededAnswers.locator("summary").click();
  await expect(chat.supersededAnswers.getByText("old old")).toBeVisible();
});

test("a switch mid-answer reaches the next request of the same turn; turn details show both revisions", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "think, then check the time",
    steps: [
      { type: "text", text: "thinking ".repeat(300), chunkSize: 6 }, // long enough for a loaded machine
      { type: "tool-call", name: "builtin_current_time", args: { timezone: "UTC" } },
    ],
    delayMs: 40,
  });
  await chat.openTools(); // the panel open before the answer starts: the switch lands mid-answer
  await chat.send("think, then check the time");
  await expect(chat.lastAnswer()).toContainText("thinking thinking");
  await chat.switchConnector("everything", true);
  await expect(chat.pendingNotice).toBeVisible();
  await scriptFakeReply(request, "openai", {
    forMessage: "think, then check the time",
    steps: [{ type: "text", text: "Answered on the new tools." }],
  });

  // The first request streams for ~18 s by design (the switch lands while it streams).
  await expect(chat.lastAnswer()).toContainText("Answered on the new tools.", { timeout: 45_000 });
  await chat.expectLastAnswerDone();
  const details = await chat.openTurnDetails();
  const requests = details.getByTestId("turn-request");
  await expect(requests).toHaveCount(2);
  await expect(requests.first()).toHaveAttribute("data-revision", "1");
  await expect(requests.first().getByTestId("request-tool-names")).not.toContainText("everything_");
  await expect(requests.last()).not.toHaveAttribute("data-revision", "1");
  await expect(requests.last().getByTestId("request-tool-names")).toContainText("everything_get-sum");
  await expect(details).toContainText("builtin.current_time");
  await saveScreenshot(page, "turn-details");
  await chat.closeTurnDetails();
});

test("Apply now after a finished tool call carries the call over instead of running it again", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "check the time, then think aloud",
    steps: [{ type: "tool-call", name: "builtin_current_time", args: { timezone: "UTC" } }],
  });
  await scriptFakeReply(request, "openai", {
    forMessage: "check the time, then think aloud",
    steps: [{ type: "text", text: "pondering ".repeat(300), chunkSize: 6 }],
    delayMs: 40,
  });
  await chat.openTools(); // the panel open before the answer starts: the switch lands mid-answer
  await chat.send("check the time, then think aloud");
  await expect(chat.lastAnswer()).toContainText("pondering pondering");
  await chat.switchConnector("everything", true);
  await expect(chat.pendingNotice).toBeVisible();
  await scriptFakeReply(request, "openai", {
    forMessage: "check the time, then think aloud",
    steps: [{ type: "text", text: "Answered from the kept call." }],
  });
  await page.getByRole("button", { name: "Apply now" }).click();

  const answer = chat.lastAnswer();
  await expect(answer).toContainText("Answered from the kept call.");
  await chat.expectLastAnswerDone();
  await expect(answer.getByTestId("kept-rounds")).toContainText("were not run again");
  await expect(answer.getByTestId("tool-call")).toHaveCount(1);
  await expect(chat.toolStatus(answer.getByTestId("tool-call"))).toHaveText(/^Status: done/);
  await expect(answer).not.toContainText("pondering"); // the text after the kept round is cut
  const details = await chat.openTurnDetails();
  await expect(details.getByTestId("turn-request")).toHaveCount(1); // it went on from the kept round
  await expect(details.getByTestId("request-tool-names")).toContainText("everything_get-sum");
  await chat.closeTurnDetails();

  await page.reload();
  await expect(chat.lastAnswer().getByTestId("kept-rounds")).toBeVisible();
  await expect(chat.supersededAnswers).toHaveCount(1);
});

test("Keep for next request dismisses the notice; the answer goes on and its next request has the change", async ({
  page,
  request,
  chat,
}) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "work, then check the time",
    steps: [
      { type: "text", text: "working ".repeat(250), chunkSize: 6 },
      { type: "tool-call", name: "builtin_current_time", args: { timezone: "UTC" } },
    ],
    delayMs: 40,
  });
  await chat.openTools(); // the panel open before the answer starts: the switch lands mid-answer
  await chat.send("work, then check the time");
  await expect(chat.lastAnswer()).toContainText("working working");
  await chat.switchConnector("everything", true);
  await expect(chat.pendingNotice).toBeVisible();
  await scriptFakeReply(request, "openai", {
    forMessage: "work, then check the time",
    steps: [{ type: "text", text: "Done with the kept change." }],
  });

  await page.getByRole("button", { name: "Keep for next request" }).click();
  // Gone at once, while the first request still streams (its tool call, then the next request on
  // the new tools, would also end the notice).
  await expect(chat.pendingNotice).toHaveCount(0, { timeout: 3_000 });
  await expect(chat.lastToolCard()).toHaveCount(0);
  // The first request streams for ~14 s by design (it must still stream when Keep is pressed).
  await expect(chat.lastAnswer()).toContainText("Done with the kept change.", { timeout: 45_000 });
  await chat.expectLastAnswerDone();
  await expect(chat.supersededAnswers).toHaveCount(0);

  const details = await chat.openTurnDetails();
  const requests = details.getByTestId("turn-request");
  await expect(requests).toHaveCount(2);
  await expect(requests.first()).toHaveAttribute("data-revision", "1");
  await expect(requests.last().getByTestId("request-tool-names")).toContainText("everything_get-sum");
  await chat.closeTurnDetails();
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
  await page.getByLabel("Name", { exact: true }).fill("sneaky");
  await page.getByLabel("URL").fill("http://127.0.0.1:9/mcp");
  await page.getByRole("button", { name: "Add connector" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "refused" })).toContainText("private");

  // Its tools would be named like the admin's "everything" tools: refused whatever the case.
  await page.getByLabel("Name", { exact: true }).fill("Everything");
  await page.getByLabel("URL").fill("https://93.184.215.14/mcp");
  await page.getByRole("button", { name: "Add connector" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "administrator" })).toContainText(
    '"Everything" is the name of a connector your administrator set up',
  );
});

test("a user's own connector is edited, and removed only once confirmed", async ({ page, connectorSettings }) => {
  const name = `remote-${Date.now()}`;
  const renamed = `${name}-renamed`;
  await connectorSettings.open();
  await connectorSettings.add(name, UNREACHABLE_URL(7));
  await expect(connectorSettings.item(name)).toContainText(UNREACHABLE_URL(7));

  await connectorSettings.edit(name, { name: renamed, url: UNREACHABLE_URL(8) });
  await expect(connectorSettings.item(renamed)).toContainText(UNREACHABLE_URL(8));
  await expect(connectorSettings.item(name)).toHaveCount(0);
  await page.reload();
  await expect(connectorSettings.item(renamed)).toContainText(UNREACHABLE_URL(8));

  // Remove asks first; Keep leaves it.
  const item = connectorSettings.item(renamed);
  await item.getByRole("button", { name: "Remove", exact: true }).click();
  const confirm = item.getByRole("group", { name: `Remove ${renamed}?` });
  await expect(confirm).toContainText("Chats that use it lose its tools.");
  await expect(confirm.getByRole("button", { name: "Keep" })).toBeFocused();
  await confirm.getByRole("button", { name: "Keep" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(item).toBeVisible();

  await connectorSettings.remove(renamed);
  await page.reload();
  await expect(connectorSettings.item(renamed)).toHaveCount(0);
  await expect(connectorSettings.item("everything")).toBeVisible();
});
