// Screenshots of the main screens, saved by every e2e run to e2e/.artifacts/screenshots/ (the
// README shows the best ones, copied into docs/screenshots/ by hand when the UI changes).
import type { Page } from "@playwright/test";

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/.artifacts/screenshots/${name}.png`, fullPage: true });
}
