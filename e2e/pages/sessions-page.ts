// Page object: the signed-in home page with the list of chat sessions.
import { expect, type Locator, type Page } from "@playwright/test";

export class SessionsPage {
  readonly list: Locator;

  constructor(private readonly page: Page) {
    this.list = page.getByRole("list", { name: "Chat sessions" });
  }

  session(title: string): Locator {
    return this.list.getByRole("listitem", { name: title, exact: true });
  }

  async create(): Promise<void> {
    const before = await this.list
      .getByRole("listitem")
      .count()
      .catch(() => 0);
    await this.page.getByRole("button", { name: "New chat" }).click();
    await expect(this.list.getByRole("listitem")).toHaveCount(before + 1);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.session(from).first().getByRole("button", { name: "Rename" }).click();
    const input = this.page.getByLabel("Session title");
    await input.fill(to);
    await this.page.getByRole("button", { name: "Save" }).click();
    await expect(this.session(to)).toBeVisible();
  }

  async remove(title: string): Promise<void> {
    await this.session(title).getByRole("button", { name: "Delete" }).click();
    await this.session(title).getByRole("button", { name: "Delete" }).click();
    await expect(this.session(title)).toHaveCount(0);
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
