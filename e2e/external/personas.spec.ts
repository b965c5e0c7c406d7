// Personas in the browser: create, edit and delete one in settings (a bad allowlist entry is refused
// with the form's message), and choose one for a chat in its header, which a reload keeps.
import { expect, test } from "../support/fixtures.ts";

test("a persona is created, chosen for a chat, edited and deleted", async ({ page, chat }) => {
  const name = `Summer ${Date.now()}`;
  await page.goto("/settings/personas");
  await page.getByRole("button", { name: "Add persona" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("System prompt").fill("Answer with sums only.");
  await page.getByLabel("Tool allowlist").fill("builtin.*, not a tool");
  await page.getByRole("button", { name: "Add persona" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "must be" })).toContainText(
    "Tool allowlist, entry 2: must be `*`, `server.*` or a tool name",
  );

  await page.getByLabel("Tool allowlist").fill("builtin.*, everything.get-sum");
  await page.getByRole("button", { name: "Add persona" }).click();
  const item = page.getByRole("listitem", { name });
  await expect(item).toContainText("builtin.*, everything.get-sum");

  await chat.openNewChat();
  await chat.pickers.choosePersona(name);
  await page.reload();
  await expect(chat.pickers.personaSelect()).toHaveText(name);

  await page.goto("/settings/personas");
  await item.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Tool allowlist").fill("*");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(item).toContainText("Tools: *");
  await item.getByRole("button", { name: "Delete" }).click();
  await expect(item).toHaveCount(0);
});
