// Page object: Settings → Connectors — the connectors listed with Test connection, and the user's
// own ones added, edited and removed (removal is confirmed in the row).
import { expect, type Locator, type Page } from "@playwright/test";

export class ConnectorSettingsPage {
  readonly list: Locator;

  constructor(private readonly page: Page) {
    this.list = page.getByRole("list", { name: "Connectors" });
  }

  async open(): Promise<void> {
    await this.page.goto("/settings/connectors");
    await expect(this.page.getByRole("heading", { name: "Connectors" })).toBeVisible();
  }

  item(name: string): Locator {
    return this.list.getByRole("listitem", { name, exact: true });
  }

  async add(name: string, url: string): Promise<void> {
    await this.page.getByRole("button", { name: "Add connector" }).click();
    await this.page.getByLabel("Name", { exact: true }).fill(name);
    await this.page.getByLabel("URL").fill(url);
    await this.page.getByRole("button", { name: "Add connector" }).click();
    await expect(this.item(name)).toBeVisible();
  }

  async edit(name: string, changes: { name?: string; url?: string }): Promise<void> {
    await this.item(name).getByRole("button", { name: "Edit" }).click();
    if (changes.name !== undefined) await this.list.getByLabel("Name", { exact: true }).fill(changes.name);
    if (changes.url !== undefined) await this.list.getByLabel("URL").fill(changes.url);
    await this.list.getByRole("button", { name: "Save" }).click();
    await expect(this.item(changes.name ?? name)).toBeVisible();
  }

  /** Remove, then the row's confirmation. */
  async remove(name: string): Promise<void> {
    const item = this.item(name);
    await item.getByRole("button", { name: "Remove", exact: true }).click();
    await item
      .getByRole("group", { name: `Remove ${name}?` })
      .getByRole("button", { name: "Remove", exact: true })
      .click();
    await expect(item).toHaveCount(0);
  }
}
