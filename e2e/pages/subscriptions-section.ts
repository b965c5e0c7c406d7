// Page object: the Subscriptions part of Settings → Providers — connect Claude or Gemini by opening
// the vendor's page in a new tab, pressing Authorize there and pasting the code back; connect ChatGPT
// by entering the shown device code on the vendor's page in a new tab while the app waits. The same
// two steps finish a Reconnect started from an account's row (providers-page.ts).
import { expect, type Locator, type Page } from "@playwright/test";

/** Opens the link in a new tab and answers that tab once it has loaded. */
async function openInNewTab(page: Page, link: Locator): Promise<Page> {
  const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
  await tab.waitForLoadState();
  return tab;
}

/** The code-paste step in `form`: Authorize on the vendor's page, paste its code, Connect. */
export async function finishCodePaste(page: Page, form: Locator, flowName: string): Promise<void> {
  const tab = await openInNewTab(page, form.getByRole("link", { name: `Open the ${flowName} sign-in page` }));
  await tab.getByRole("button", { name: "Authorize" }).click();
  const code = (await tab.getByTestId("auth-code").textContent())?.trim() ?? "";
  await tab.close();
  await form.getByLabel("Code from the sign-in page").fill(code);
  await form.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(form).toHaveCount(0);
}

/** The device step in `step`: enter the shown code on the vendor's page; the app notices by itself. */
export async function finishDevice(page: Page, step: Locator, flowName: string): Promise<void> {
  await expect(step.getByRole("status")).toContainText("Waiting for you to approve");
  const code = (await step.getByTestId("device-user-code").textContent())?.trim() ?? "";
  const tab = await openInNewTab(page, step.getByRole("link", { name: `Open the ${flowName} device sign-in page` }));
  await tab.getByLabel("Device code").fill(code);
  await tab.getByRole("button", { name: "Continue" }).click();
  await expect(tab.getByRole("status")).toContainText("You may close this tab");
  await tab.close();
  await expect(step).toHaveCount(0);
}

export class SubscriptionsSection {
  readonly section: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByRole("region", { name: "Subscriptions" });
  }

  flow(name: string): Locator {
    return this.section.getByRole("listitem", { name, exact: true });
  }

  async connectByCodePaste(flowName: string): Promise<void> {
    await this.flow(flowName)
      .getByRole("button", { name: `Connect ${flowName}` })
      .click();
    await finishCodePaste(this.page, this.section.getByRole("form", { name: `Connect ${flowName}` }), flowName);
  }

  async connectByDevice(flowName: string): Promise<void> {
    await this.flow(flowName)
      .getByRole("button", { name: `Connect ${flowName}` })
      .click();
    await finishDevice(this.page, this.section.getByRole("group", { name: `Connect ${flowName}` }), flowName);
  }
}
