// Page object: the composer row's pickers — the model picker (a button opening a popover with a
// search box over the models, grouped by server provider and provider account) and the persona
// picker (a Radix select). Model values are `provider:model` or `account:<id>:model`.
import { expect, type Locator, type Page } from "@playwright/test";

import { escapeRegExp } from "./escape-regexp.ts";

export class ComposerPickers {
  constructor(private readonly page: Page) {}

  /** The model picker's button; its `data-value` is the chosen model's value. */
  modelButton(): Locator {
    return this.page.getByRole("button", { name: /^Model:/ });
  }

  /** The open picker's list of models. */
  modelList(): Locator {
    return this.page.getByRole("listbox", { name: "Models", exact: true });
  }

  modelSearch(): Locator {
    return this.page.getByRole("combobox", { name: "Search models", exact: true });
  }

  /** One source's group of models in the open picker, by the start of its label (the account's name). */
  modelGroup(label: string): Locator {
    return this.modelList().getByRole("group", { name: new RegExp(`^${escapeRegExp(label)}`) });
  }

  async openModels(): Promise<void> {
    if (await this.modelList().isVisible()) return;
    await this.modelButton().click();
    await expect(this.modelSearch()).toBeFocused();
  }

  /** Picks a model by its value (`openai:gpt-5.1`) and waits for the button to show it. */
  async chooseModel(value: string): Promise<void> {
    await this.openModels();
    await this.modelList()
      .locator(`[role=option][data-value="${value.replace(/["\\]/g, "\\$&")}"]`)
      .click();
    await expect(this.modelButton()).toHaveAttribute("data-value", value);
  }

  /** Picks `model` from the group of the source whose label starts with `label`. */
  async chooseGroupModel(label: string, model: string): Promise<void> {
    await this.openModels();
    await this.modelGroup(label).getByRole("option", { name: model, exact: true }).first().click();
    await expect(this.modelList()).toHaveCount(0);
    await expect(this.modelButton()).toContainText(model);
  }

  async expectModel(value: string | RegExp): Promise<void> {
    await expect(this.modelButton()).toHaveAttribute("data-value", value);
  }

  personaSelect(): Locator {
    return this.page.getByRole("combobox", { name: "Persona", exact: true });
  }

  /** Chooses a persona ("No persona" for none); the select shows it once the server saved it. */
  async choosePersona(name: string): Promise<void> {
    const select = this.personaSelect();
    await expect(select).toBeEnabled();
    await select.click();
    await this.page.getByRole("option", { name, exact: true }).click();
    await expect(select).toHaveText(name);
    await expect(select).toBeEnabled();
  }
}
