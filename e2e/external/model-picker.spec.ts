// The composer's model picker: a button in the composer row opening a popover whose search box
// narrows the models (grouped by provider / account) as you type; ↓ and Enter pick from the
// keyboard, Escape closes it and gives focus back to the button; the next answer comes from the
// picked model, and a reload keeps the chat's choice. Axe stays clean with the popover open.
import AxeBuilder from "@axe-core/playwright";

import { expect, test } from "../support/fixtures.ts";

test("the model picker searches, groups and picks from the keyboard", async ({ page, chat }) => {
  await chat.openNewChat();
  const { pickers } = chat;
  await pickers.openModels();
  await expect(pickers.modelGroup("OpenAI").getByRole("option", { name: "gpt-5.1", exact: true })).toBeVisible();
  await expect(pickers.modelGroup("Google Gemini")).toBeVisible();
  const axe = await new AxeBuilder({ page }).include("[role=dialog]").analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

  await pickers.modelSearch().fill("gemini pro");
  await expect(pickers.modelList().getByRole("option")).toHaveText(["gemini-2.5-pro"]);
  await expect(pickers.modelGroup("OpenAI")).toHaveCount(0);
  await pickers.modelSearch().fill("no such model");
  await expect(page.getByText("No model matches.")).toBeVisible();

  await pickers.modelSearch().fill("gemini");
  await pickers.modelSearch().press("ArrowDown");
  const second = pickers.modelList().getByRole("option").nth(1);
  await expect(pickers.modelSearch()).toHaveAttribute("aria-activedescendant", (await second.getAttribute("id"))!);
  const picked = (await second.getAttribute("data-value"))!;
  await pickers.modelSearch().press("Enter");
  await expect(pickers.modelList()).toHaveCount(0);
  await pickers.expectModel(picked);

  await pickers.modelButton().click();
  await expect(pickers.modelSearch()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(pickers.modelList()).toHaveCount(0);
  await expect(pickers.modelButton()).toBeFocused();

  await chat.send("which model answers");
  await chat.expectLastAnswerDone();
  await expect(chat.answerSummary()).toContainText(`google · ${picked.split(":")[1]}`);
  await page.reload();
  await pickers.expectModel(picked);
});
