// Personal subscriptions in the browser, against the harness OAuth server and the fake provider's
// strict subscription endpoints: each flow is connected through the UI as a user would (new tab,
// Authorize, paste the code / enter the device code), answers a chat with a tool call through the
// real MCP server — the fake provider refuses any request not shaped like the vendor's CLI — and is
// disconnected again. The connect page says plainly whose client registration the flow reuses, and
// it and both sign-in steps pass an axe scan. An account whose refresh token the vendor revoked says
// "reconnect needed" with its last error, and is revived from its own row.
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { chooseAccountModel, ProvidersPage } from "../pages/providers-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { SubscriptionsSection } from "../pages/subscriptions-section.ts";
import { ALICE, E2E_PROVIDER_NAME, FAKE_PROVIDER_URL } from "../support/config.ts";
import { PROVIDER_OAUTH_URL } from "../support/provider-oauth/config.ts";
import { saveScreenshot } from "../support/screenshots.ts";

type Case = {
  flowName: string;
  label: string;
  model: string;
  fakeProvider: "anthropic" | "openai" | "google";
  path: RegExp;
  connect: (section: SubscriptionsSection, flowName: string) => Promise<void>;
};

const CASES: Case[] = [
  {
    flowName: "Claude Pro / Max",
    label: "Claude (claude-user@example.test)",
    model: "claude-sonnet-4-5",
    fakeProvider: "anthropic",
    path: /^\/anthropic\/v1\/messages\?beta=true$/,
    connect: (section, name) => section.connectByCodePaste(name),
  },
  {
    flowName: "ChatGPT Plus / Pro",
    label: "ChatGPT (chatgpt-user@example.test)",
    model: "gpt-5.1-codex-max",
    fakeProvider: "openai",
    path: /^\/chatgpt\/backend-api\/codex\/responses$/,
    connect: (section, name) => section.connectByDevice(name),
  },
  {
    flowName: "Gemini (Google account)",
    label: "Gemini (gemini-user@example.test)",
    model: "gemini-2.5-pro",
    fakeProvider: "google",
    path: /^\/code-assist\/v1internal:streamGenerateContent\?alt=sse$/,
    connect: (section, name) => section.connectByCodePaste(name),
  },
];

async function fakeRequests(request: APIRequestContext, provider: string) {
  const response = await request.get(`${FAKE_PROVIDER_URL}/_fake/requests?provider=${provider}`);
  return (await response.json()) as { path: string; status: number }[];
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include("main").analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, ALICE.name);
});

test("the connect page names the risk of reusing the vendors' CLI sign-ins", async ({ page }) => {
  const providers = new ProvidersPage(page);
  await providers.open();
  const section = new SubscriptionsSection(page);
  for (const { flowName } of CASES) {
    await expect(section.flow(flowName)).toContainText("reuses the");
    await expect(section.flow(flowName)).toContainText("terms may not allow a third-party app");
  }
  await saveScreenshot(page, "settings-subscriptions");
  await expectNoSeriousViolations(page);

  for (const [flowName, step] of [
    ["Claude Pro / Max", "form"],
    ["ChatGPT Plus / Pro", "group"],
  ] as const) {
    await section
      .flow(flowName)
      .getByRole("button", { name: `Connect ${flowName}` })
      .click();
    await expect(section.section.getByRole(step, { name: `Connect ${flowName}` })).toBeVisible();
    await expectNoSeriousViolations(page);
    await section.section.getByRole("button", { name: "Cancel" }).click();
    await expect(section.flow(flowName)).toBeVisible();
  }
});

for (const c of CASES) {
  test(`${c.flowName}: connect, chat with a tool call through it, disconnect`, async ({ page, request }) => {
    const providers = new ProvidersPage(page);
    await providers.open();
    await c.connect(new SubscriptionsSection(page), c.flowName);
    await expect(providers.account(c.label)).toContainText("Subscription");

    const before = (await fakeRequests(request, c.fakeProvider)).length;
    const chat = new ChatPage(page);
    await chat.openNewChat();
    await chooseAccountModel(page, c.label, c.model);
    await chat.switchConnector("everything", true);
    await chat.send('use tool everything_get-sum {"a":20,"b":22}');
    await expect(chat.lastAnswer().getByTestId("tool-call")).toContainText("done");
    await expect(chat.lastAnswer()).toContainText("Tool everything_get-sum returned");
    await chat.expectLastAnswerDone();
    const sent = (await fakeRequests(request, c.fakeProvider)).slice(before).filter((r) => c.path.test(r.path));
    expect(sent.map((r) => r.status)).toEqual([200, 200]);

    await providers.open();
    await providers.remove(c.label);
  });
}

test("a revoked Claude sign-in says reconnect needed and is revived from its row", async ({ page, request }) => {
  const label = "Claude (claude-user@example.test)";
  const providers = new ProvidersPage(page);
  await providers.open();
  // Tokens issued now live 30 s: within the refresh margin, so the next request refreshes first.
  const timings = (accessTtlMs: number) =>
    request.post(`${PROVIDER_OAUTH_URL}/_oauth/timings`, { data: { accessTtlMs } });
  await timings(30_000);
  try {
    await new SubscriptionsSection(page).connectByCodePaste("Claude Pro / Max");
  } finally {
    await timings(3_600_000);
  }
  await expect(providers.account(label)).toContainText("Token valid until");
  // The vendor revokes the refresh token meanwhile.
  expect((await request.post(`${PROVIDER_OAUTH_URL}/_oauth/revoke`, { data: { vendor: "anthropic" } })).ok()).toBe(
    true,
  );
  await request.post(`${FAKE_PROVIDER_URL}/_fake/clear`);

  const chat = new ChatPage(page);
  await chat.openNewChat();
  await chooseAccountModel(page, label, "claude-sonnet-4-5");
  await chat.send("expire now");
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "failed", { timeout: 15_000 });
  await expect(chat.lastAnswer()).toContainText("reconnect your Claude account in Settings → Providers");

  await providers.open();
  const row = providers.account(label);
  await expect(row.getByRole("status")).toContainText("Reconnect needed");
  await expect(row.getByTestId("account-last-error")).toContainText("reconnect your Claude account");
  await expectNoSeriousViolations(page);
  await providers.reconnect(label, "Claude Pro / Max", "code-paste");
  await expect(row.getByRole("status")).toHaveCount(0);
  await expect(row.getByTestId("account-last-error")).toHaveCount(0);
  await expect(row).toContainText("Token valid until");
  await expect(providers.account(label)).toHaveCount(1);

  await chat.openNewChat();
  await chooseAccountModel(page, label, "claude-sonnet-4-5");
  await chat.send("back again");
  await chat.expectLastAnswerDone();

  await providers.open();
  await providers.remove(label);
});
