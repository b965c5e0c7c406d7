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

  /** Waits until the list has loaded (either the list or the empty state is shown). */
  async waitForLoaded(): Promise<void> {
    await expect(this.list.or(this.page.getByText("No chats yet"))).toBeVisible();
  }

  async create(): Promise<void> {
    await this.waitForLoaded();
    const created = this.page.waitForResponse((r) => r.url().includes("/api/trpc/session.create") && r.ok());
    await this.page.getByRole("button", { name: "New chat" }).click();
    await created;
    await expect(this.session("New chat").first()).toBeVisible();
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
