// stdio MCP servers per user, in the browser against the production build: the admin file offers
// the reference server-memory with `${PATCHBAY_USER_DIR}` (playwright.config.ts), so each user gets
// a process and a memory file of their own. What Alice stores, Bob's model never reads.
import { ChatPage } from "../pages/chat-page.ts";
import { ALICE, BOB } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";

test("two users with the admin's server-memory each read only their own memory", async ({ openAs }) => {
  const secret = `alice-secret-${Date.now()}`;
  const entity = { name: secret, entityType: "note", observations: ["only Alice knows this"] };

  const alice = await openAs(ALICE);
  const aliceChat = new ChatPage(alice);
  await aliceChat.openNewChat();
  await aliceChat.switchConnector("memory", true);
  await aliceChat.send(`use tool memory_create_entities ${JSON.stringify({ entities: [entity] })}`);
  await expect(aliceChat.lastAnswerText()).toContainText("Tool memory_create_entities returned:");
  await aliceChat.send("use tool memory_read_graph {}");
  await expect(aliceChat.lastAnswerText()).toContainText(secret);

  const bob = await openAs(BOB);
  const bobChat = new ChatPage(bob);
  await bobChat.openNewChat();
  await bobChat.switchConnector("memory", true);
  await bobChat.send("use tool memory_read_graph {}");
  await expect(bobChat.lastAnswerText()).toContainText("Tool memory_read_graph returned:");
  await expect(bobChat.lastAnswerText()).not.toContainText(secret);
  await expect(bobChat.lastAnswerText()).not.toContainText("only Alice knows this");
});
