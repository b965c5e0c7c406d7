// Page object: Settings → Providers — add an API key or an OpenAI-compatible endpoint, read an
// account's row, reconnect a subscription from its row, remove it; and picking an account's model in
// a chat's model picker.
import { expect, type Locator, type Page } from "@playwright/test";

import { ComposerPickers } from "./composer-pickers.ts";
import { finishCodePaste, finishDevice } from "./subscriptions-section.ts";

export class ProvidersPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/settings/providers");
    await expect(this.page.getByRole("heading", { name: "Providers" })).toBeVisible();
  }

  account(label: string): Locator {
    return this.page.getByRole("listitem", { name: label, exact: true });
  }

  async addApiKey(provider: "Anthropic (Claude)" | "OpenAI" | "Google Gemini", label: string, key: string) {
    await this.page.getByRole("button", { name: "Add API key" }).click();
    const form = this.page.getByRole("form", { name: "Add an API key" });
    await form.getByLabel("Provider").selectOption({ label: provider });
    await form.getByLabel("Name (optional)").fill(label);
    await form.getByLabel("API key").fill(key);
    await form.getByRole("button", { name: "Save key" }).click();
    await expect(this.account(label)).toBeVisible();
  }

  async addEndpoint(label: string, baseUrl: string): Promise<void> {
    await this.page.getByRole("button", { name: "Add OpenAI-compatible endpoint" }).click();
    const form = this.page.getByRole("form", { name: "Add an OpenAI-compatible endpoint" });
    await form.getByLabel("Name").fill(label);
    await form.getByLabel("Base URL").fill(baseUrl);
    await form.getByRole("button", { name: "Add endpoint" }).click();
  }

  /** Reconnects the subscription `label` from its row, with its flow's sign-in step shown in the row. */
  async reconnect(label: string, flowName: string, kind: "code-paste" | "device-code"): Promise<void> {
    const row = this.account(label);
    await row.getByRole("button", { name: "Reconnect", exact: true }).click();
    const name = `Reconnect ${label}`;
    if (kind === "code-paste") await finishCodePaste(this.page, row.getByRole("form", { name }), flowName);
    else await finishDevice(this.page, row.getByRole("group", { name }), flowName);
  }

  async remove(label: string): Promise<void> {
    this.page.once("dialog", (dialog) => void dialog.accept());
    await this.account(label)
      .getByRole("button", { name: /^(Remove|Disconnect)$/ })
      .click();
    await expect(this.account(label)).toHaveCount(0);
  }
}

/** Picks `model` from the model picker's group of the account named `label`. */
export async function chooseAccountModel(page: Page, label: string, model: string): Promise<void> {
  await new ComposerPickers(page).chooseGroupModel(label, model);
}
