// Page object: the Subscriptions part of Settings → Providers — connect Claude or Gemini by opening
// the vendor's page in a new tab, pressing Authorize there and pasting the code back; connect ChatGPT
// by entering the shown device code on the vendor's page in a new tab while the app waits.
import { expect, type Locator, type Page } from "@playwright/test";

export class SubscriptionsSection {
  readonly section: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByRole("region", { name: "Subscriptions" });
  }

  flow(name: string): Locator {
    return this.section.getByRole("listitem", { name, exact: true });
  }

  /** Opens the link in a new tab and answers that tab once it has loaded. */
  private async openInNewTab(link: Locator): Promise<Page> {
    const [tab] = await Promise.all([this.page.context().waitForEvent("page"), link.click()]);
    await tab.waitForLoadState();
    return tab;
  }

  async connectByCodePaste(flowName: string): Promise<void> {
    await this.flow(flowName)
      .getByRole("button", { name: `Connect ${flowName}` })
      .click();
    const form = this.section.getByRole("form", { name: `Connect ${flowName}` });
    const tab = await this.openInNewTab(form.getByRole("link", { name: `Open the ${flowName} sign-in page` }));
    await tab.getByRole("button", { name: "Authorize" }).click();
    const code = (await tab.getByTestId("auth-code").textContent())?.trim() ?? "";
    await tab.close();
    await form.getByLabel("Code from the sign-in page").fill(code);
    await form.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(form).toHaveCount(0);
  }

  async connectByDevice(flowName: string): Promise<void> {
    await this.flow(flowName)
      .getByRole("button", { name: `Connect ${flowName}` })
      .click();
    const step = this.section.getByRole("group", { name: `Connect ${flowName}` });
    await expect(step.getByRole("status")).toContainText("Waiting for you to approve");
    const code = (await step.getByTestId("device-user-code").textContent())?.trim() ?? "";
    const tab = await this.openInNewTab(step.getByRole("link", { name: `Open the ${flowName} device sign-in page` }));
    await tab.getByLabel("Device code").fill(code);
    await tab.getByRole("button", { name: "Continue" }).click();
    await expect(tab.getByRole("status")).toContainText("You may close this tab");
    await tab.close();
    await expect(step).toHaveCount(0);
  }
}
