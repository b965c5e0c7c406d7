// Page object: Patchbay's sign-in page and the issuer's account chooser behind it.
import { expect, type Page } from "@playwright/test";

export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/sign-in");
  }

  /** Clicks the provider button on Patchbay's page, then the account on the issuer's page. */
  async signIn(providerName: string, accountName: string): Promise<void> {
    await this.page.getByRole("button", { name: `Continue with ${providerName}` }).click();
    await this.page.getByRole("button", { name: `Continue as ${accountName}` }).click();
    await expect(this.page.getByTestId("signed-in-as")).toHaveText(accountName);
  }

  async expectVisible(): Promise<void> {
    await expect(this.page).toHaveURL(/\/sign-in/);
    await expect(this.page.getByRole("heading", { name: "Sign in to Patchbay" })).toBeVisible();
  }
}
