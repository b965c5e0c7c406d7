// Provider accounts in the browser: a user's own API key and an OpenAI-compatible endpoint (the
// fake provider, whose /models list is read when it is added) are added in Settings → Providers,
// picked in a chat's model picker, answer with a tool call through the real MCP server, and are
// removed again. Keys are never shown back; a broken endpoint gives a clear error.
import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { chooseAccountModel, ProvidersPage } from "../pages/providers-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { BOB, E2E_PROVIDER_NAME, FAKE_PROVIDER_URL } from "../support/config.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, BOB.name);
});

test("an own API key is added, used for a chat with a tool call, and removed", async ({ page }) => {
  const providers = new ProvidersPage(page);
  await providers.open();
  const label = `Bob's OpenAI key ${Date.now()}`;
  await providers.addApiKey("OpenAI", label, "sk-bob-e2e-key-0001");
  await expect(providers.account(label)).toContainText("OpenAI · API key");
  await expect(page.getByText("sk-bob-e2e-key-0001")).toHaveCount(0);

  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chooseAccountModel(page, label, "gpt-5.1");
  await chat.switchConnector("everything", true);
  await chat.send('use tool everything_get-sum {"a":20,"b":22}');
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText("done");
  await expect(chat.lastAnswer()).toContainText("Tool everything_get-sum returned");
  await chat.expectLastAnswerDone();

  await providers.open();
  await providers.remove(label);
});

test("an OpenAI-compatible endpoint lists its models and answers in a chat", async ({ page }) => {
  const providers = new ProvidersPage(page);
  await providers.open();
  await providers.addEndpoint("Broken endpoint", "http://127.0.0.1:9/v1");
  await expect(page.getByRole("alert").filter({ hasText: "Could not reach" })).toBeVisible();

  await page.getByRole("button", { name: "Cancel" }).click();
  const label = `Local models ${Date.now()}`;
  await providers.addEndpoint(label, `${FAKE_PROVIDER_URL}/compat/v1`);
  await expect(providers.account(label)).toContainText("2 models: llama3.2, qwen2.5-coder");
  await saveScreenshot(page, "settings-providers");

  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chooseAccountModel(page, label, "qwen2.5-coder");
  await chat.send("hello from my own endpoint");
  await expect(chat.lastAnswer()).toContainText("Echo: hello from my own endpoint");
  await chat.expectLastAnswerDone();

  await page.reload();
  await chat.pickers.expectModel(/^account:.+:qwen2\.5-coder$/);

  await providers.open();
  await providers.remove(label);
});
