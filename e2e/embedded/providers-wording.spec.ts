// Settings → Providers on a server with no model provider of its own (a fresh `npm start`): the empty
// list says so and points to what to add, instead of claiming chats use the server's providers.
import { expect, test } from "@playwright/test";

import { ProvidersPage } from "../pages/providers-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";

test("with no server provider, the empty Providers page says to add one", async ({ page }) => {
  await page.goto("/");
  await new SignInPage(page).signIn("Local account", "Local user");
  await new ProvidersPage(page).open();
  const empty = page.getByTestId("no-accounts");
  await expect(empty).toHaveText(
    "No accounts yet, and this server has no model provider of its own: add an API key or an OpenAI-compatible endpoint below, or connect a subscription, to start chatting.",
  );
  await expect(page.getByText("chats use the server's own providers")).toHaveCount(0);
});
