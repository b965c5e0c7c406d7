// 1,016 tools from one connector (our fixture, with 1,000 tools added in one call), with the real
// registry, session manager and the fake provider: the Tools panel stays small and searchable and
// says, before anything is sent, that the chat is over the provider's limit; a turn on that provider
// fails with those words and no request reaches the provider; under the limit the turn goes out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startConnectorBed, type ConnectorBed } from "../../e2e/support/testbeds/connector-bed.ts";
import { TEST_MODELS, waitFor, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import { getSessionTools, PANEL_TOOLS_PER_CONNECTOR, setConnectorEnabled } from "./session-tools.ts";

let bed: ConnectorBed;
let chat: Awaited<ReturnType<ConnectorBed["chatWithFixture"]>>;
const BULK = 1_000;

beforeAll(async () => {
  bed = await startConnectorBed();
  chat = await bed.chatWithFixture();
  const { revision } = await bed.registry.snapshot(chat.sessionId);
  const added = await bed.registry.call(
    chat.sessionId,
    {
      canonicalName: "fixture.add_tool",
      args: { name: "bulk", count: BULK, description: "x".repeat(2_000) },
      revision,
    },
    AbortSignal.timeout(10_000),
  );
  expect(added.isError).toBe(false);
  await waitFor(
    () => bed.registry.snapshot(chat.sessionId),
    (snapshot) => snapshot.tools.length > BULK,
    30_000,
  );
});

afterAll(async () => {
  await bed.close();
});

describe("a chat with 1,000 tools", () => {
  it("gets a small, searchable Tools panel that says the chat is over OpenAI's limit", async () => {
    const started = performance.now();
    const panel = await getSessionTools(bed.deps, chat.userId, chat.sessionId, { defaultProvider: "openai" });
    const elapsedMs = performance.now() - started;
    const fixture = panel.connectors.find((connector) => connector.name === "fixture")!;
    const bytes = Buffer.byteLength(JSON.stringify(panel));

    expect(fixture.toolCount).toBeGreaterThan(BULK);
    expect(fixture.matchCount).toBe(fixture.toolCount);
    expect(fixture.tools).toHaveLength(PANEL_TOOLS_PER_CONNECTOR);
    expect(fixture.tools.every((tool) => tool.description.length <= 500)).toBe(true);
    expect(bytes).toBeLessThan(100_000); // 2 MB of descriptions on the server
    console.log(`[figures] Tools panel with ${fixture.toolCount} tools: ${bytes} bytes in ${Math.round(elapsedMs)} ms`);
    expect(panel.limit).toMatchObject({ provider: "openai", exposedCount: expect.any(Number) as number });
    expect(panel.limit?.problem).toMatch(
      /^This chat offers the model 1,0\d\d tools; OpenAI accepts at most 128 in one request\./,
    );

    const searched = await getSessionTools(bed.deps, chat.userId, chat.sessionId, { query: "BULK_99" });
    const found = searched.connectors.find((connector) => connector.name === "fixture")!;
    expect(found.matchCount).toBe(11); // bulk_99 and bulk_990 … bulk_999
    expect(found.tools.map((tool) => tool.name).sort()).toEqual(
      ["bulk_99", ...Array.from({ length: 10 }, (_, i) => `bulk_99${i}`)].sort(),
    );
  });

  it("refuses to send a turn to OpenAI, in words, and sends nothing", async () => {
    bed.fake.clear();
    const { turnId } = await bed.manager.startTurn(chat.userId, chat.sessionId, "Hello", {
      provider: "openai",
      model: TEST_MODELS.openai,
    });
    const turn = await waitForTurnEnd(bed.database.db, turnId);

    expect(turn.status).toBe("failed");
    expect(turn.error).toMatchObject({ code: "bad_request:tools" });
    expect(JSON.stringify(turn.error)).toMatch(/OpenAI accepts at most 128 in one request/);
    expect(bed.fake.requests()).toHaveLength(0);
  });

  it("sends the turn once the connector is switched off, and the panel's warning is gone", async () => {
    const fixtureId = (await getSessionTools(bed.deps, chat.userId, chat.sessionId)).connectors.find(
      (connector) => connector.name === "fixture",
    )!.id;
    await setConnectorEnabled(bed.deps, chat.userId, {
      sessionId: chat.sessionId,
      connectorId: fixtureId,
      enabled: false,
    });
    const panel = await getSessionTools(bed.deps, chat.userId, chat.sessionId, { defaultProvider: "openai" });
    expect(panel.limit?.problem).toBeNull();

    bed.fake.clear();
    bed.fake.script("openai", { steps: [{ type: "text", text: "Hi." }] });
    const { turnId } = await bed.manager.startTurn(chat.userId, chat.sessionId, "Hello again", {
      provider: "openai",
      model: TEST_MODELS.openai,
    });
    expect((await waitForTurnEnd(bed.database.db, turnId)).status).toBe("completed");
    expect(bed.fake.requests()).toHaveLength(1);
  });
});
