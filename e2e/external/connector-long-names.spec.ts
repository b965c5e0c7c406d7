// A connector whose server publishes a 100-character tool name (the MCP fixture's hostile names):
// in connector settings, Test connection lists it inside the connector's card, wrapped, with no
// sideways overflow. Runs on the "external-lan" instance, which allows private connector URLs (the
// fixture listens on loopback).
import path from "node:path";

import { LONG_TOOL_NAME } from "../support/mcp-fixture/tools.ts";
import { startServerProcess } from "../support/mcp-fixture/launch.ts";
import { expect, test } from "../support/fixtures.ts";

test("a long tool name wraps inside its connector card", async ({ page, connectorSettings }) => {
  const fixture = await startServerProcess({
    command: process.execPath,
    args: ["--import", "tsx", path.resolve("e2e/support/mcp-fixture/main.ts"), "http", "0"],
    ready: /mcp-fixture listening on (\S+)/,
  });
  try {
    const name = `long-names-${test.info().retry}`;
    await connectorSettings.open();
    await connectorSettings.add(name, fixture.ready[1]!);
    const item = connectorSettings.item(name);
    await item.getByRole("button", { name: "Test connection" }).click();
    const check = item.getByTestId("connector-check");
    await expect(check).toContainText(LONG_TOOL_NAME);

    for (const box of [check, item]) {
      expect(await box.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }
    const itemBox = (await item.boundingBox())!;
    const checkBox = (await check.boundingBox())!;
    expect(checkBox.x + checkBox.width).toBeLessThanOrEqual(itemBox.x + itemBox.width);
    await connectorSettings.remove(name);
    await expect(page.getByText(LONG_TOOL_NAME)).toHaveCount(0);
  } finally {
    await fixture.stop();
  }
});
