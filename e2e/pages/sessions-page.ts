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

  /** The row of one session, by id (titles repeat: every new chat is "New chat"). */
  row(id: string): Locator {
    return this.list.getByRole("listitem").filter({ has: this.page.locator(`a[href="/s/${id}"]`) });
  }

  /**
   * Creates a chat from the home page's New chat, which opens it; then comes back to the list and
   * returns the new chat's id once its row is shown.
   */
  async create(): Promise<string> {
    await this.waitForLoaded();
    const created = this.page.waitForResponse((r) => r.url().includes("/api/trpc/session.create") && r.ok());
    await this.page.getByRole("button", { name: "New chat", exact: true }).click();
    const body = (await (await created).json()) as { result: { data: { json: { id: string } } } }[];
    const id = body[0]!.result.data.json.id;
    await expect(this.page).toHaveURL(new RegExp(`/s/${id}$`));
    await expect(this.page.getByLabel("Message", { exact: true })).toBeVisible();
    await this.page.goto("/");
    await expect(this.row(id)).toBeVisible();
    return id;
  }

  /** Opens a row's actions menu and picks one of its items. */
  async chooseAction(row: Locator, title: string, action: "Rename" | "Delete"): Promise<void> {
    await row.getByRole("button", { name: `Actions for ${title}`, exact: true }).click();
    await this.page.getByRole("menuitem", { name: action, exact: true }).click();
  }

  /** Renames the chat with this id (currently titled `from`). */
  async rename(id: string, from: string, to: string): Promise<void> {
    await this.chooseAction(this.row(id), from, "Rename");
    const input = this.page.getByLabel("Session title");
    await input.fill(to);
    await this.page.getByRole("button", { name: "Save" }).click();
    await expect(this.session(to)).toBeVisible();
  }

  async remove(title: string): Promise<void> {
    await this.chooseAction(this.session(title), title, "Delete");
    await this.session(title).getByRole("button", { name: "Delete", exact: true }).click();
    await expect(this.session(title)).toHaveCount(0);
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
