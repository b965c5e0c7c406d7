// MCP OAuth in the browser: a user adds an OAuth-protected MCP server (e2e/support/mcp-oauth) as
// their own connector, connects their account on the server's consent page, comes back to settings,
// tests the connection, uses one of its tools from a chat, and disconnects from the chat's Tools
// panel. Runs on the "external-lan" instance, which allows private connector URLs (the test server
// listens on loopback).
import { MCP_OAUTH_URL } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test("a user connects their own account to an OAuth connector, uses its tool, and disconnects", async ({
  page,
  chat,
}) => {
  const name = `notes-${test.info().retry}`;
  await page.goto("/settings/connectors");
  await page.getByRole("button", { name: "Add connector" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL").fill(MCP_OAUTH_URL);
  await page.getByRole("button", { name: "Add connector" }).click();

  const item = page.getByRole("listitem", { name });
  await item.getByRole("button", { name: "Test connection" }).click();
  await expect(item.getByRole("alert")).toContainText("Authorization needed");
  await expect(item.getByTestId("oauth-account")).toContainText("Sign-in needed");
  await item.getByRole("button", { name: "Connect account" }).click();

  // The MCP server's own consent page, in this tab.
  await expect(page.getByRole("heading", { name: "Authorize Patchbay" })).toBeVisible();
  await page.getByLabel("Account name").fill("alice-notes");
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/\/settings\/connectors\?oauth=connected/);
  await expect(page.getByRole("status").filter({ hasText: "Your account is connected to" })).toContainText(name);
  await expect(item.getByTestId("oauth-account")).toContainText("Your account is connected.");
  await item.getByRole("button", { name: "Test connection" }).click();
  await expect(item.getByTestId("connector-check")).toContainText("whoami");
  await saveScreenshot(page, "settings-connector-oauth");

  await chat.openNewChat();
  await chat.switchConnector(name, true);
  await expect(page.getByRole("checkbox", { name: `Allow ${name} whoami` })).toBeChecked();
  await chat.send(`use tool ${name}_whoami {}`);
  const card = chat.lastAnswer().getByTestId("tool-call");
  await expect(card).toContainText(`${name}.whoami`);
  await expect(card).toContainText("done");
  await card.locator("summary").click();
  await expect(card.getByTestId("tool-result")).toContainText("signed in as alice-notes");
  await chat.expectLastAnswerDone();

  await page.getByRole("button", { name: `Disconnect account for ${name}` }).click();
  await expect(page.getByRole("button", { name: `Connect account for ${name}` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Allow ${name} whoami` })).toHaveCount(0);
});
