// The chat list beside an open chat: search by title finds the chats that match (case and word
// order aside), Rename renames a chat in place (the open chat's heading follows), and Delete, after
// its confirmation, removes a chat (deleting the open one goes back to the list of chats).
import { expect, test } from "../support/fixtures.ts";

test("search finds matching chats; rename and delete work from each chat's menu", async ({
  page,
  chat,
  sidebar,
  sessions,
}) => {
  const tag = Date.now().toString(36);
  const baking = `Banana bread recipe ${tag}`;
  const physics = `Quantum tunnelling notes ${tag}`;
  await chat.openNewChat();
  await chat.send(baking);
  await chat.expectLastAnswerDone();
  await chat.openNewChat();
  await chat.send(physics);
  await chat.expectLastAnswerDone();
  await expect(sidebar.link(physics)).toHaveAttribute("aria-current", "page");

  // Search: every word, any order, any case.
  await sidebar.search.fill(`RECIPE banana ${tag}`);
  await expect(sidebar.list.getByRole("listitem")).toHaveCount(1);
  await expect(sidebar.item(baking)).toBeVisible();
  await sidebar.search.fill(tag);
  await expect(sidebar.list.getByRole("listitem")).toHaveCount(2);
  await expect(sidebar.item(physics)).toBeVisible();

  // Rename the open chat: the list and the chat's heading follow, and a reload keeps it.
  const renamed = `Tunnelling, renamed ${tag}`;
  await sidebar.rename(physics, renamed);
  await expect(sidebar.item(physics)).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await expect(sidebar.link(renamed)).toHaveAttribute("aria-current", "page");

  // Escape leaves a rename without saving.
  await sidebar.chooseAction(baking, "Rename");
  await sidebar.list.getByRole("textbox", { name: "Chat title" }).fill("not saved");
  await page.keyboard.press("Escape");
  await expect(sidebar.item(baking)).toBeVisible();

  // Delete asks first; Keep leaves the chat.
  await sidebar.chooseAction(baking, "Delete");
  await expect(sidebar.item(baking).getByRole("button", { name: "Keep" })).toBeFocused();
  await sidebar.item(baking).getByRole("button", { name: "Keep" }).click();
  await expect(sidebar.link(baking)).toBeVisible();

  // Delete another chat: the open one stays open.
  await sidebar.remove(baking);
  await expect(page).toHaveURL(/\/s\//);
  await expect(chat.lastAnswer()).toBeVisible();

  // Delete the open chat: back to the list of chats, where it is gone too.
  await sidebar.remove(renamed);
  await expect(page).toHaveURL(/\/$/);
  await sessions.waitForLoaded();
  await expect(sessions.session(renamed)).toHaveCount(0);
  await expect(sessions.session(baking)).toHaveCount(0);
});
