// The specs' `test`: Playwright's, extended with a page already signed in through the harness OIDC
// issuer (as Alice unless a spec says `test.use({ account: BOB })`, or `null` to stay signed out)
// and the page objects on it. `openAs` gives a further signed-in page in its own browser context,
// for specs with two users at once; those contexts close after the test. The external-accounts
// setup project keeps signing every account in once, before these run.
import { test as base, type Page } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { ChatSidebar } from "../pages/chat-sidebar.ts";
import { ConnectorSettingsPage } from "../pages/connector-settings-page.ts";
import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { ALICE, E2E_PROVIDER_NAME } from "./config.ts";

export type Account = { id: string; email: string; name: string };

type Fixtures = {
  /** Who `page` is signed in as; `null` leaves it signed out. */
  account: Account | null;
  signIn: SignInPage;
  sessions: SessionsPage;
  chat: ChatPage;
  sidebar: ChatSidebar;
  connectorSettings: ConnectorSettingsPage;
  /** A new browser context signed in as `account`, and its page. */
  openAs: (account: Account) => Promise<Page>;
};

async function signInAs(page: Page, account: Account): Promise<void> {
  await page.goto("/");
  await new SignInPage(page).signIn(E2E_PROVIDER_NAME, account.name);
}

export const test = base.extend<Fixtures>({
  account: [ALICE, { option: true }],
  page: async ({ page, account }, provide) => {
    if (account) await signInAs(page, account);
    await provide(page);
  },
  signIn: async ({ page }, provide) => provide(new SignInPage(page)),
  sessions: async ({ page }, provide) => provide(new SessionsPage(page)),
  chat: async ({ page }, provide) => provide(new ChatPage(page)),
  sidebar: async ({ page }, provide) => provide(new ChatSidebar(page)),
  connectorSettings: async ({ page }, provide) => provide(new ConnectorSettingsPage(page)),
  openAs: async ({ browser }, provide) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await provide(async (account) => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      await signInAs(page, account);
      return page;
    });
    for (const context of contexts) await context.close();
  },
});

export { expect } from "@playwright/test";
