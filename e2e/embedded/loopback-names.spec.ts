// Both loopback names reach a working sign-in: `npm start` prints http://localhost:PORT, Next.js and
// habit offer http://127.0.0.1:PORT, and a person may open either. Each starts in a fresh browser
// context (no cookies from the other name) and ends signed in with the local account.
import { expect, test } from "@playwright/test";

import { EMBEDDED_APP_PORT } from "../support/config.ts";
import { SignInPage } from "../pages/sign-in-page.ts";

for (const host of ["localhost", "127.0.0.1"]) {
  test(`signing in through http://${host}:PORT works`, async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://${host}:${EMBEDDED_APP_PORT}/`);
    const signIn = new SignInPage(page);
    await signIn.expectVisible();
    await signIn.signIn("Local account", "Local user");
    await expect(page).toHaveURL(new RegExp(`^http://${host.replaceAll(".", "\\.")}:${EMBEDDED_APP_PORT}/`));
    await expect(page.getByText("Sign-in is misconfigured")).toHaveCount(0);
    await context.close();
  });
}
