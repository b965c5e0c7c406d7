// Page object: the chat list beside an open chat (a column on wide screens) — search, and the
// Rename / Delete menu of each chat.
import { expect, type Locator, type Page } from "@playwright/test";

export class ChatSidebar {
  readonly root: Locator;
  readonly list: Locator;
  readonly search: Locator;

  constructor(private readonly page: Page) {
    this.root = page.getByRole("complementary", { name: "Chat list" });
    this.list = this.root.getByRole("list", { name: "Chats" });
    this.search = this.root.getByRole("searchbox", { name: "Search chats" });
  }

  /** The chat's row, by its exact title. */
  item(title: string): Locator {
    return this.list.getByRole("listitem", { name: title, exact: true });
  }

  link(title: string): Locator {
    return this.item(title).getByRole("link", { name: title, exact: true });
  }

  /** Opens the actions menu of the open chat's row (titles repeat; the open chat is one). */
  async openCurrentActions(): Promise<void> {
    const row = this.list.getByRole("listitem").filter({ has: this.page.locator('a[aria-current="page"]') });
    await row.getByRole("button", { name: /^Actions for / }).click();
  }

  /** Opens a row's actions menu and picks one of its items. */
  async chooseAction(title: string, action: "Rename" | "Delete"): Promise<void> {
    await this.item(title)
      .getByRole("button", { name: `Actions for ${title}`, exact: true })
      .click();
    await this.page.getByRole("menuitem", { name: action, exact: true }).click();
  }

  async rename(from: string, to: string): Promise<void> {
    await this.chooseAction(from, "Rename");
    const field = this.list.getByRole("textbox", { name: "Chat title" });
    await expect(field).toBeFocused();
    await field.fill(to);
    await field.press("Enter");
    await expect(this.item(to)).toBeVisible();
  }

  async remove(title: string): Promise<void> {
    await this.chooseAction(title, "Delete");
    const row = this.item(title);
    await expect(row).toContainText(`Delete “${title}”?`);
    await row.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(row).toHaveCount(0);
  }
}
