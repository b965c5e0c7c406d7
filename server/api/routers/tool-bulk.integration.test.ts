// The Tools panel's counts and its all-on / all-off switch, with the real registry and connection
// pool over our MCP fixture (stdio) and a real Postgres: counts cover every listed tool, all-off
// leaves the model none of the connector's tools (a new revision), all-on brings them back, and a
// connector that is off refuses the bulk switch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startConnectorBed, type ConnectorBed } from "../../../e2e/support/testbeds/connector-bed.ts";
import { isAppError } from "../../errors.ts";
import { getSessionTools, setToolEnabled } from "../../mcp/session-tools.ts";
import { setAllToolsEnabled, withEnabledCounts } from "./tool-bulk.ts";

let bed: ConnectorBed;
let chat: Awaited<ReturnType<ConnectorBed["chatWithFixture"]>>;

beforeAll(async () => {
  bed = await startConnectorBed();
  chat = await bed.chatWithFixture();
}, 60_000);

afterAll(async () => {
  await bed.close();
});

async function panel() {
  const tools = await getSessionTools(bed.deps, chat.userId, chat.sessionId);
  return withEnabledCounts(bed.deps, chat.userId, chat.sessionId, tools);
}

const fixtureOf = (tools: Awaited<ReturnType<typeof panel>>) => tools.connectors.find((c) => c.name === "fixture")!;

describe("tool counts and bulk switches", () => {
  it("counts the tools that are on, every one the connector lists", async () => {
    const fixture = fixtureOf(await panel());
    expect(fixture.toolCount).toBeGreaterThan(3);
    expect(fixture.enabledCount).toBe(fixture.toolCount);
    await setToolEnabled(bed.deps, chat.userId, {
      sessionId: chat.sessionId,
      connectorId: fixture.id,
      toolName: fixture.tools[0]!.name,
      enabled: false,
    });
    expect(fixtureOf(await panel()).enabledCount).toBe(fixture.toolCount - 1);
    expect((await panel()).connectors.find((c) => c.name === "extra")!.enabledCount).toBe(0); // off
  });

  it("switches all of a connector's tools off, then on, each a new revision", async () => {
    const fixture = fixtureOf(await panel());
    const before = (await bed.registry.snapshot(chat.sessionId)).revision;
    const off = await setAllToolsEnabled(bed.deps, chat.userId, {
      sessionId: chat.sessionId,
      connectorId: fixture.id,
      enabled: false,
    });
    expect(off.revision).toBeGreaterThan(before);
    const snapshotOff = await bed.registry.snapshot(chat.sessionId);
    expect(snapshotOff.tools.filter((tool) => tool.connectorId === fixture.id)).toHaveLength(0);
    expect(fixtureOf(await panel()).enabledCount).toBe(0);

    const on = await setAllToolsEnabled(bed.deps, chat.userId, {
      sessionId: chat.sessionId,
      connectorId: fixture.id,
      enabled: true,
    });
    expect(on.revision).toBeGreaterThan(off.revision);
    const after = fixtureOf(await panel());
    expect(after.enabledCount).toBe(after.toolCount);
    expect(after.tools.every((tool) => tool.enabled)).toBe(true);
  });

  it("refuses the bulk switch on a connector that is off in the chat", async () => {
    const extra = (await panel()).connectors.find((c) => c.name === "extra")!;
    const error = await setAllToolsEnabled(bed.deps, chat.userId, {
      sessionId: chat.sessionId,
      connectorId: extra.id,
      enabled: false,
    }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("bad_request:tools");
  });
});
