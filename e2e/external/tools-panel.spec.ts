// The tools at a glance and on demand: the summary chip in the composer's row counts the chat's
// connectors and tools and opens the Tools panel (docked at 1280 px). In the panel, connectors
// collapse to one line ("n of m tools on"), a tool switch and the all-on / all-off switches move the
// counts (the chip's too), the search finds tools by name and by description across connectors, and
// the policies are Radix selects (a tool's is mounted on its first use, and answers the keyboard and
// the mouse from that first use). While an answer streams, a change shows "pending" on the chip.
// The panel's open or closed state is remembered across pages, and a page opens with it as it was.
import type { Locator } from "@playwright/test";

import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";

const tools = (count: number) => `${count} ${count === 1 ? "tool" : "tools"}`;

/** The chip's tool count: "1 connector · 14 tools · revision 3" → 14. */
async function chipToolCount(chip: Locator): Promise<number> {
  return Number((await chip.textContent())!.match(/· ([\d,]+) tools? ·/)![1]!.replace(",", ""));
}

test("the summary chip opens the panel; counts, bulk switches, search and policies", async ({ page, chat }) => {
  await chat.openNewChat();
  const chip = chat.toolsSummary();
  await expect(chip).toHaveText(/^0 connectors · \d+ tools? · revision 1$/);
  const builtins = await chipToolCount(chip);
  await expect(chat.toolsPanel()).toHaveCount(0);
  await chip.click();
  await expect(chip).toHaveAttribute("aria-expanded", "true");
  await expect(chat.connectorToggle("everything")).toHaveAttribute("aria-expanded", "false");

  await chat.switchConnector("everything", true);
  const summary = chat.connectorToggle("everything").getByTestId("connector-summary");
  await expect(summary).toHaveText(/^connected · (\d+) of \1 tools on$/);
  const total = Number((await summary.textContent())!.match(/of (\d+)/)![1]);
  expect(total).toBeGreaterThan(3);
  await expect(chip).toContainText(`1 connector · ${tools(builtins + total)}`);

  const echo = page.getByRole("checkbox", { name: "Allow everything echo", exact: true });
  await echo.click();
  await expect(echo).not.toBeChecked();
  await expect(summary).toHaveText(`connected · ${total - 1} of ${total} tools on`);
  await expect(chip).toContainText(`· ${tools(builtins + total - 1)} ·`);

  await page.getByRole("button", { name: "All off for everything" }).click();
  await expect(summary).toHaveText(`connected · 0 of ${total} tools on`);
  await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).not.toBeChecked();
  await expect(chip).toContainText(`1 connector · ${tools(builtins)} ·`);
  await page.getByRole("button", { name: "All on for everything" }).click();
  await expect(summary).toHaveText(`connected · ${total} of ${total} tools on`);
  await expect(echo).toBeChecked();

  // The search runs across connectors, on names and descriptions.
  await chat.switchConnector("memory", true);
  const search = chat.toolsPanel().getByRole("searchbox", { name: "Search tools" });
  await search.fill("sum of two");
  await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).toBeVisible();
  await expect(echo).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Allow memory create_entities" })).toHaveCount(0);
  await search.fill("entities");
  await expect(page.getByRole("checkbox", { name: "Allow memory create_entities" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Allow everything get-sum" })).toHaveCount(0);
  await search.fill("");
  // The cleared search shows every expanded connector's tools again. The list follows the search box
  // a moment later (a deferred value): a click before it did could land its press on the memory
  // header and its release on a row the re-render moved there, which clicks nothing.
  await expect(echo).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Allow memory create_entities" })).toBeVisible();

  // Collapsed, a connector keeps its one line; its policy is an accessible select.
  await chat.connectorToggle("memory").click();
  await expect(page.getByRole("checkbox", { name: "Allow memory create_entities" })).toHaveCount(0);
  await expect(chat.connectorToggle("memory").getByTestId("connector-summary")).toHaveText(/tools on$/);
  await chat.setToolPolicy("everything", "get-sum", "ask");
  await chat.setToolPolicy("everything", "get-sum", "");

  await chat.toolsPanel().getByRole("button", { name: "Close tools" }).click();
  await expect(chat.toolsPanel()).toHaveCount(0);
  await expect(chip).toHaveAttribute("aria-expanded", "false");
});

test("an open Tools panel is remembered: the next page's HTML has it open; a closed one stays closed", async ({
  page,
  chat,
}) => {
  await chat.openNewChat();
  const url = page.url();
  await chat.toolsSummary().click();
  await expect(chat.toolsPanel()).toBeVisible();
  // The server renders the panel (the browser's cookies go with the request), not React after hydrating.
  const html = await (await page.request.get(url)).text();
  expect(html).toContain('aria-label="Connectors"');
  await page.reload();
  await expect(chat.toolsPanel()).toBeVisible();
  await expect(chat.toolsSummary()).toHaveAttribute("aria-expanded", "true");

  await chat.toolsPanel().getByRole("button", { name: "Close tools" }).click();
  await expect(chat.toolsPanel()).toHaveCount(0);
  expect(await (await page.request.get(url)).text()).not.toContain('aria-label="Connectors"');
  await page.reload();
  await expect(chat.toolsSummary()).toHaveAttribute("aria-expanded", "false");
  await expect(chat.toolsPanel()).toHaveCount(0);
});

test("a change made while an answer streams shows pending on the chip", async ({ page, request, chat }) => {
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: "pending chip",
    steps: [{ type: "text", text: "slow ".repeat(1000), chunkSize: 5 }],
    delayMs: 40,
  });
  await chat.openTools(); // open before the answer starts, so the switch lands mid-answer
  await chat.send("pending chip");
  await expect(chat.lastAnswer()).toContainText("slow slow");
  await chat.switchConnector("everything", true);
  await chat.toolsPanel().getByRole("button", { name: "Close tools" }).click();
  await expect(chat.toolsSummary()).toContainText("pending");
  await expect(chat.toolsSummary()).toHaveAccessibleName(/change pending/);

  await chat.toolsSummary().click();
  await expect(chat.pendingNotice).toBeVisible();
  await page.getByRole("button", { name: "Keep for next request" }).click();
  await expect(chat.toolsSummary()).not.toContainText("pending");
  await chat.stop();
});

test("a tool's policy select answers the keyboard and the mouse from its first use", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.expandConnector("everything");
  const echo = chat.toolPolicy("everything", "echo");
  await expect(echo).toHaveText("Default");
  await expect(echo).toHaveAttribute("aria-expanded", "false");

  // Keyboard: Tab from the tool's switch reaches it; ArrowDown opens the list on the current value.
  await page.getByRole("checkbox", { name: "Allow everything echo", exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(echo).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("listbox")).toBeVisible();
  await expect(page.getByRole("option", { name: "Default", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await expect(echo).toHaveText("Allow"); // controlled: shows the value once the server saved it
  await expect(echo).toBeEnabled();
  // Escape closes it again without a change.
  await echo.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await expect(echo).toBeFocused();
  await expect(echo).toHaveText("Allow");

  // Typeahead on a closed select picks the option by its first letter, as on any Radix select.
  const sum = chat.toolPolicy("everything", "get-sum");
  await sum.focus();
  await page.keyboard.press("n");
  await expect(sum).toHaveText("Never");
  await expect(page.getByRole("listbox")).toHaveCount(0);

  // Mouse: the first click on another tool's select opens it at once; a click on an option picks it.
  const env = chat.toolPolicy("everything", "get-env");
  await expect(env).toBeEnabled();
  await env.click();
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.getByRole("option", { name: "Ask", exact: true }).click();
  await expect(env).toHaveText("Ask");
  await expect(page.getByRole("listbox")).toHaveCount(0);
});
