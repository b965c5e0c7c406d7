// Two users in one run: the second can neither see nor touch the first one's sessions or
// connectors, through the UI or by calling the API directly with their own session cookie.
import { ChatPage } from "../pages/chat-page.ts";
import { ConnectorSettingsPage } from "../pages/connector-settings-page.ts";
import { SessionsPage } from "../pages/sessions-page.ts";
import { ALICE, BOB } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { trpcMutation, trpcQuery } from "../support/trpc-http.ts";

test("a second user cannot list, read, rename or delete the first user's sessions", async ({ openAs }) => {
  const alice = await openAs(ALICE);
  const created = await trpcMutation(alice.request, "session.create", { title: "Alice's private plans" });
  expect(created.status).toBe(200);
  const aliceSessionId = (created.data as { id: string }).id;

  const bob = await openAs(BOB);
  const bobSessions = new SessionsPage(bob);
  await bobSessions.waitForLoaded();
  await expect(bobSessions.session("Alice's private plans")).toHaveCount(0);

  const bobList = await trpcQuery(bob.request, "session.list");
  expect(bobList.status).toBe(200);
  expect((bobList.data as { id: string }[]).map((s) => s.id)).not.toContain(aliceSessionId);

  const read = await trpcQuery(bob.request, "session.get", { id: aliceSessionId });
  const rename = await trpcMutation(bob.request, "session.rename", { id: aliceSessionId, title: "mine now" });
  const remove = await trpcMutation(bob.request, "session.delete", { id: aliceSessionId });
  for (const attempt of [read, rename, remove]) {
    expect(attempt.status).toBe(404);
    expect(attempt.error?.data?.appCode).toBe("not_found:session");
  }

  const aliceView = await trpcQuery(alice.request, "session.get", { id: aliceSessionId });
  expect(aliceView.status).toBe(200);
  expect((aliceView.data as { title: string }).title).toBe("Alice's private plans");
});

test("a second user sees none of the first user's connectors, and cannot change, test or use them", async ({
  openAs,
}) => {
  const alice = await openAs(ALICE);
  const name = `alice-only-${Date.now()}`;
  const aliceSettings = new ConnectorSettingsPage(alice);
  await aliceSettings.open();
  await aliceSettings.add(name, "https://203.0.113.21/mcp");
  const aliceList = await trpcQuery(alice.request, "connectors.list");
  const connector = (aliceList.data as { id: string; name: string }[]).find((c) => c.name === name)!;
  expect(connector).toBeDefined();

  const bob = await openAs(BOB);
  // Settings: the admin's connector, none of Alice's.
  const bobSettings = new ConnectorSettingsPage(bob);
  await bobSettings.open();
  await expect(bobSettings.item("everything")).toBeVisible();
  await expect(bobSettings.item(name)).toHaveCount(0);
  await expect(bob.getByText(name)).toHaveCount(0);

  // A chat's Tools panel: the same.
  const bobChat = new ChatPage(bob);
  await bobChat.openNewChat();
  await bobChat.openTools();
  await expect(bobChat.connectorSwitch("everything")).toBeVisible();
  await expect(bobChat.connectorSwitch(name)).toHaveCount(0);
  const bobSessionId = new URL(bob.url()).pathname.split("/").pop()!;

  // The API, called directly with Bob's cookie.
  const bobList = await trpcQuery(bob.request, "connectors.list");
  expect(bobList.status).toBe(200);
  expect((bobList.data as { id: string }[]).map((c) => c.id)).not.toContain(connector.id);
  const tools = await trpcQuery(bob.request, "tools.state", { sessionId: bobSessionId });
  expect(tools.status).toBe(200);
  expect(JSON.stringify(tools.data)).not.toContain(connector.id);

  const attempts = {
    update: await trpcMutation(bob.request, "connectors.update", { id: connector.id, name: "bob-owns-this" }),
    delete: await trpcMutation(bob.request, "connectors.delete", { id: connector.id }),
    check: await trpcMutation(bob.request, "connectors.check", { id: connector.id }),
    switchOn: await trpcMutation(bob.request, "tools.setConnector", {
      sessionId: bobSessionId,
      connectorId: connector.id,
      enabled: true,
    }),
  };
  for (const [what, attempt] of Object.entries(attempts)) {
    expect(attempt.status, what).toBe(404);
    expect(attempt.error?.data?.appCode, what).toMatch(/^not_found:/);
  }

  // Alice's connector is untouched, then she removes it.
  await alice.reload();
  await expect(aliceSettings.item(name)).toContainText("https://203.0.113.21/mcp");
  await aliceSettings.remove(name);
});

test("bad input gets a clear 400 with the zod issues", async ({ page }) => {
  const result = await trpcMutation(page.request, "session.rename", { id: "whatever", title: "   " });
  expect(result.status).toBe(400);
  expect(result.error?.data?.appCode).toBe("bad_request:api");
  expect(JSON.stringify(result.error)).toContain("Title cannot be empty");
});
