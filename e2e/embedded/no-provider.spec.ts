// A fresh `npm start` has no model provider. The composer says what to do and Send stays disabled
// until one exists; the server refuses a send anyway with 400 bad_request:provider in words. Once
// the user adds their own API key, Send is enabled.
import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { trpcMutation } from "../support/trpc-http.ts";

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
});
