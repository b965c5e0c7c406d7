// Page object: Settings → Personas, and the sub-agent cards a persona consulted as a tool shows in a
// chat's answer: add a persona offered as a sub-agent, find the card of its call, its steps and its
// own tool cards, and the nested requests in the Turn details drawer.
import { expect, type Locator, type Page } from "@playwright/test";

import { escapeRegExp } from "./escape-regexp.ts";

export type SubAgentPersona = { name: string; systemPrompt: string; allowlist: string; isReadOnly?: boolean };

export class PersonasPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/settings/personas");
  }

  item(name: string): Locator {
    return this.page.getByRole("listitem", { name, exact: true });
  }

  /** Adds a persona with "Available as a sub-agent" on (the chat's model, default cap and timeout). */
  async addSubAgent(persona: SubAgentPersona): Promise<void> {
    await this.open();
    await this.page.getByRole("button", { name: "Add persona" }).click();
    await this.page.getByLabel("Name", { exact: true }).fill(persona.name);
    await this.page.getByLabel("System prompt").fill(persona.systemPrompt);
    await this.page.getByLabel("Tool allowlist").fill(persona.allowlist);
    await this.page.getByRole("switch", { name: "Available as a sub-agent" }).click();
    if (persona.isReadOnly) await this.page.getByRole("switch", { name: "Read-only tools only" }).click();
    await this.page.getByRole("button", { name: "Add persona" }).click();
    await expect(this.item(persona.name).getByTestId("persona-sub-agent")).toContainText("Sub-agent on");
  }

  /** The card of a call of `persona.<slug>` in an answer (the tool card holding the sub-agent's progress). */
  static personaCall(answer: Locator, canonicalName: string): Locator {
    return answer
      .getByTestId("tool-call")
      .filter({ has: answer.page().getByTestId("sub-agent") })
      .filter({ hasText: new RegExp(`^${escapeRegExp(canonicalName)}`) });
  }

  /** The sub-agent's progress inside a persona call's card. */
  static subAgent(answer: Locator): Locator {
    return answer.getByTestId("sub-agent");
  }

  /** The sub-agent's own tool cards. */
  static nestedToolCards(answer: Locator): Locator {
    return answer.getByTestId("sub-agent").getByTestId("tool-call");
  }
}
