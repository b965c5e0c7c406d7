// A fresh `npm start` has no model provider. Settings → Providers says so and points to what to add
// (instead of claiming chats use the server's providers). The composer says what to do and Send
// stays disabled until one exists; the server refuses a send anyway with 400 bad_request:provider in
// words. Once the user adds their own API key, Send is enabled. One file, in order: both need the
// embedded app's one local user without accounts, and the second adds one (then removes it).
import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { ProvidersPage } from "../pages/providers-page.ts";
import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { trpcMutation } from "../support/trpc-http.ts";

test.describe.configure({ mode: "serial" });

test("with no server provider, the empty Providers page says to add one", async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn("Local account", "Local user");
  await new ProvidersPage(page).open();
  const empty = page.getByTestId("no-accounts");
  await expect(empty).toHaveText(
    "No accounts yet, and this server has no model provider of its own: add an API key or an OpenAI-compatible endpoint below, or connect a subscription, to start chatting.",
  );
  await expect(page.getByText("chats use the server's own providers")).toHaveCount(0);
});

test("with no model provider the composer says what to do and Send waits for one", async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn("Local account", "Local user");
  const sessionId = await new SessionsPage(page).create();
  await page.goto(`/s/${sessionId}`);
  const chat = new ChatPage(page);

  const notice = page.getByRole("status").filter({ hasText: "No model provider is set up yet" });
  await expect(notice).toContainText("Add an API key or an OpenAI-compatible endpoint in Settings → Providers");
  await expect(notice.getByRole("link", { name: "Settings → Providers" })).toHaveAttribute(
    "href",
    "/settings/providers",
  );
  await chat.composer.fill("hello, anyone?");
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await chat.composer.press("Enter");
  await expect(chat.composer).toHaveValue("hello, anyone?");

  const refused = await trpcMutation(page.request, "chat.send", { sessionId, text: "hello, anyone?" });
  expect(refused.status).toBe(400);
  expect(refused.error?.data?.appCode).toBe("bad_request:provider");
  expect(refused.error?.message).toBe(
    "No model provider is configured. Add an API key or endpoint in Settings → Providers first.",
  );

  const added = await trpcMutation(page.request, "accounts.addApiKey", {
    provider: "anthropic",
    label: "My key",
    apiKey: "sk-ant-not-a-real-key-0001",
  });
  expect(added.status).toBe(200);
  await page.reload();
  await expect(notice).toHaveCount(0);
  await chat.composer.fill("hello, anyone?");
  await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();

  // The embedded app's one local user is shared by every embedded spec: leave it without providers.
  const { id } = added.data as { id: string };
  expect((await trpcMutation(page.request, "accounts.remove", { id })).status).toBe(200);
});
