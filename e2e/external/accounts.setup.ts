// Signs in every e2e account once, one after another, before the external specs run in parallel.
// The first sign-in of an account creates its user; two first sign-ins of the same account at once
// race in Auth.js (the second fails with "already linked"), which is not what those specs test.
import { test as setup } from "@playwright/test";

import { SignInPage } from "../pages/sign-in-page.ts";
import { ALICE, BOB, CAROL, DAN, E2E_PROVIDER_NAME, SAGE } from "../support/config.ts";

for (const account of [ALICE, BOB, CAROL, DAN, SAGE]) {
  setup(`first sign-in of ${account.name}`, async ({ page }) => {
    await page.goto("/");
    await new SignInPage(page).signIn(E2E_PROVIDER_NAME, account.name);
  });
}
