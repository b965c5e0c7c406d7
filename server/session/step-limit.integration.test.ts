// The step limit against real parts, for each provider: Postgres, the session manager, the real AI
// SDK providers and the fake provider, which refuses (400) every request the real API would refuse.
// A model still calling tools at the cap gets ONE last request that offers no tool (tool choice
// `none`, tools still declared), holds the last round's results and tells it the limit was reached;
// its answer ends the turn, which carries the step-limit note for the user.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exposeToolName } from "../core/tool-names.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeIdFor,
  messageText,
  sessionMessages,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { createBuiltinToolSource } from "../mcp/builtin-tools.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import type { ToolSource } from "../core/tool-source.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });
const callTime = { steps: [{ type: "tool-call" as const, name: TIME_TOOL, args: {} }] };
const NOTE = "Step limit reached";

/** The built-in tools, counting the calls that actually run. */
function countingTools(): ToolSource & { calls: string[] } {
  const builtin = createBuiltinToolSource();
  const calls: string[] = [];
  return {
    calls,
    snapshot: (sessionId) => builtin.snapshot(sessionId),
    call: (sessionId, request, signal) => {
      calls.push(request.canonicalName);
      return builtin.call(sessionId, request, signal);
    },
  };
}

/** The tool choice a recorded request body sets, whatever its wire format ("auto" when unset). */
function toolChoiceOf(provider: ProviderId, body: unknown): string {
  const request = body as Record<string, unknown>;
  if (provider === "anthropic") return (request.tool_choice as { type?: string } | undefined)?.type ?? "auto";
  if (provider === "google") {
    const config = request.toolConfig as { functionCallingConfig?: { mode?: string } } | undefined;
    return config?.functionCallingConfig?.mode?.toLowerCase() ?? "auto";
  }
  return (request.tool_choice as string | undefined) ?? "auto";
}

let engine: TestEngine;
const tools = countingTools();

beforeAll(async () => {
  engine = await createTestEngine({ maxSteps: 2, tools });
});

afterAll(async () => {
  await engine.close();
});

describe.each(providerIds)("the step limit on %s", (provider) => {
  const fakeId = fakeIdFor(provider);

  it("sends one last request without tools, with the last results and a note, and keeps the answer", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    tools.calls.length = 0;
    fake.script(fakeId, callTime, callTime, { steps: [{ type: "text", text: "Here is what I found so far." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Check the time forever", choice(provider));
    const turn = await waitForTurnEnd(db, turnId);
    expect(turn).toMatchObject({ status: "completed", stepCount: 3 });
    expect(turn.error).toMatchObject({ code: "step_limit" });
    expect(tools.calls).toHaveLength(2);

    const requests = fake.requests(fakeId);
    expect(requests.map((request) => request.error ?? request.status)).toEqual([200, 200, 200]);
    const [first, , last] = requests.map((request) => request.body);
    expect(toolChoiceOf(provider, first)).not.toBe("none");
    expect(JSON.stringify(first)).not.toContain(NOTE);
    expect(toolChoiceOf(provider, last)).toBe("none");
    expect(JSON.stringify(last)).toContain(NOTE);
    const results = (await sessionMessages(db, sessionId)).filter((message) => message.role === "tool");
    expect(results).toHaveLength(2);
    const lastResult = (results[1]!.parts as { output: { iso: string } }[])[0]!.output.iso;
    expect(JSON.stringify(last)).toContain(lastResult); // the last round's result is read by the model

    const messages = await sessionMessages(db, sessionId);
    expect(messageText(messages.at(-1)!)).toBe("Here is what I found so far.");
    const audit = await db.turnRequest.findMany({ where: { turnId }, orderBy: { index: "asc" } });
    expect(audit.map((request) => (request.toolNames as string[]).length > 0)).toEqual([true, true, false]);
    const limit = await db.sessionEvent.findFirst({ where: { turnId, type: "limit.reached" } });
    expect(limit?.data).toMatchObject({ limit: "steps", max: 2 });
  });
});

describe("a tool call in the answer after the step limit", () => {
  it("is never run: the AI SDK refuses it under tool choice none, and the turn fails", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    tools.calls.length = 0;
    fake.script("anthropic", callTime, callTime, callTime); // an endpoint that ignores tool choice `none`

    const { turnId } = await manager.startTurn(userId, sessionId, "Loop", choice("anthropic"));
    expect(await waitForTurnEnd(db, turnId)).toMatchObject({ status: "failed", error: { code: "provider" } });
    expect(tools.calls).toHaveLength(2);
    const messages = await sessionMessages(db, sessionId);
    expect(messages.filter((message) => message.role === "tool")).toHaveLength(2);
    expect(JSON.stringify(messages.at(-1)!.parts)).not.toContain("tool-call"); // no call without a result
  });
});

describe("the step limit with tools as text (no native tool calling)", () => {
  it("leaves the tool descriptions out of the last request and does not adopt calls written in it", async () => {
    const textTools = await createTestEngine({ maxSteps: 1, tools }, { isNativeTools: () => false });
    try {
      const { db, fake, manager } = textTools;
      const { userId, sessionId } = await createUserWithSession(db);
      tools.calls.length = 0;
      const xml = "<tool_use><server>builtin</server><tool>current_time</tool><arguments>{}</arguments></tool_use>";
      fake.script(
        "compat",
        { steps: [{ type: "text", text: xml }] },
        { steps: [{ type: "text", text: `Again ${xml}` }] },
      );

      const { turnId } = await manager.startTurn(userId, sessionId, "Time?", choice("openai-compatible"));
      expect((await waitForTurnEnd(db, turnId)).error).toMatchObject({ code: "step_limit" });
      expect(tools.calls).toHaveLength(1);
      const [first, last] = fake.requests("compat").map((request) => JSON.stringify(request.body));
      expect(first).toContain("# Tools");
      expect(last).not.toContain("# Tools");
      expect(last).toContain(NOTE);
      expect(fake.requests("compat").every((request) => request.status === 200)).toBe(true);
      expect(messageText((await sessionMessages(db, sessionId)).at(-1)!)).toContain("Again");
    } finally {
      await textTools.close();
    }
  });
});
