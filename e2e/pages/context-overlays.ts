// Page object: a chat's context overlays — "Exclude from context" under a message (an excluded one is
// dimmed under "Excluded from context" with "Include again"), "Exclude round" and "Replace result"
// with a tool card, the pinned notes and the pin field above the composer, the overlays'
// pending-change notice with its Apply now, and the overlay lines of a request in turn details.
import { expect, type Locator, type Page } from "@playwright/test";

/** A RegExp that matches `text` literally. */
function literal(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

export class ContextOverlays {
  /** The notice shown while an answer streams on older overlays than the chat's. */
  readonly pendingNotice: Locator;
  readonly pinnedNotes: Locator;

  constructor(private readonly page: Page) {
    this.pendingNotice = page.getByTestId("overlays-pending").getByRole("status");
    this.pinnedNotes = page.getByRole("region", { name: "Pinned notes" }).getByTestId("pinned-note");
  }

  /** The wrapper of the user message with this text (its control and label live in it). */
  userMessage(text: string): Locator {
    return this.page
      .locator("[data-message-id]")
      .filter({ has: this.page.getByTestId("user-message").filter({ hasText: literal(text) }) });
  }

  /** The wrapper of the assistant message with this text. */
  assistantMessage(text: string): Locator {
    return this.page
      .getByTestId("assistant-turn")
      .locator("[data-message-id]")
      .filter({ has: this.page.getByTestId("markdown").filter({ hasText: literal(text) }) });
  }

  async exclude(message: Locator): Promise<void> {
    await message.getByRole("button", { name: "Exclude from context", exact: true }).click();
    await expect(this.excludedLabel(message)).toBeVisible();
  }

  excludedLabel(scope: Locator): Locator {
    return scope.getByTestId("excluded-label").getByText("Excluded from context", { exact: true });
  }

  async includeAgain(message: Locator): Promise<void> {
    await message.getByRole("button", { name: /^Include again/ }).click();
    await expect(this.excludedLabel(message)).toHaveCount(0);
  }

  async applyNow(): Promise<void> {
    await this.page.getByTestId("overlays-pending").getByRole("button", { name: "Apply now", exact: true }).click();
    await expect(this.pendingNotice).toHaveCount(0);
  }

  async pin(text: string): Promise<void> {
    await this.page.getByRole("textbox", { name: "Note to pin", exact: true }).fill(text);
    await this.page
      .getByRole("region", { name: "Pinned notes" })
      .getByRole("button", { name: "Pin", exact: true })
      .click();
    await expect(this.pinnedNotes.filter({ hasText: literal(text) })).toBeVisible();
  }

  async unpin(text: string): Promise<void> {
    await this.pinnedNotes
      .filter({ hasText: literal(text) })
      .getByRole("button", { name: "Unpin", exact: true })
      .click();
    await expect(this.pinnedNotes.filter({ hasText: literal(text) })).toHaveCount(0);
  }

  /** The context controls around a tool card (the card is inside). */
  toolControls(card: Locator): Locator {
    return card.locator("xpath=ancestor::*[@data-call-id][1]");
  }

  async replaceResult(card: Locator, summary: string): Promise<void> {
    const controls = this.toolControls(card);
    await controls.getByRole("button", { name: "Replace result", exact: true }).click();
    await controls.getByRole("textbox", { name: /^Summary the model sees/ }).fill(summary);
    await controls.getByRole("button", { name: "Use summary", exact: true }).click();
    await expect(controls.getByTestId("replaced-result")).toContainText(summary);
  }

  async excludeRound(card: Locator): Promise<void> {
    await this.toolControls(card).getByRole("button", { name: "Exclude round", exact: true }).click();
    const round = card.locator("xpath=ancestor::*[@data-testid='excluded-round'][1]");
    await expect(this.excludedLabel(round)).toBeVisible();
  }

  /** The overlay lines of the requests in an open Turn details drawer. */
  requestOverlays(details: Locator): Locator {
    return details.getByTestId("request-overlays");
  }
}
