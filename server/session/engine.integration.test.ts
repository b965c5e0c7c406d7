// The session engine against real parts: Postgres, the fake provider speaking each real wire format
// over HTTP/SSE, and the real AI SDK providers in between. One multi-step tool turn per provider,
// then cancel, restart, provider switch, resumable events, tool failures and the one-turn rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AppError } from "../errors.ts";
import { exposeToolName } from "../core/tool-names.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeIdFor,
  messageText,
  sessionMessages,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import { followEvents } from "./event-feed.ts";
import { readEventsAfter } from "./event-reads.ts";
import { getSessionHistory } from "./history.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
/** Every chat's built-ins, as the model is shown them. */
const BUILTIN_TOOLS = [TIME_TOOL, exposeToolName(ASK_FOLLOWUP_QUESTION), exposeToolName(ATTEMPT_COMPLETION)];
let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

function choice(provider: ProviderId) {
  return { provider, model: TEST_MODELS[provider] };
}

describe.each(providerIds)("a tool turn on %s", (provider) => {
  it("streams, calls the tool, sends the result back and finishes with the answer", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    fake.script(fakeIdFor(provider), {
      steps: [{ type: "tool-call", name: TIME_TOOL, args: { timezone: "Europe/Paris" } }],
    });
    fake.script(fakeIdFor(provider), { steps: [{ type: "text", text: "It is late in Paris." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "What time is it in Paris?", choice(provider));
    const turn = await waitForTurnEnd(db, turnId);
    expect(turn.status).toBe("completed");
    expect(turn.stepCount).toBe(2);

    const messages = await sessionMessages(db, sessionId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const [call] = messages[1]!.parts as { type: string; name: string; args: unknown; id: string }[];
    expect(call).toMatchObject({ type: "tool-call", name: "builtin.current_time", args: { timezone: "Europe/Paris" } });
    const [result] = messages[2]!.parts as { callId: string; isError: boolean; output: { timezone: string } }[];
    expect(result).toMatchObject({ callId: call!.id, isError: false, output: { timezone: "Europe/Paris" } });
    expect(messageText(messages[3]!)).toBe("It is late in Paris.");

    const requests = await db.turnRequest.findMany({ where: { turnId }, orderBy: { index: "asc" } });
    expect(requests.map((r) => r.toolNames)).toEqual([BUILTIN_TOOLS, BUILTIN_TOOLS]);
    const wire = fake.requests(fakeIdFor(provider));
    expect(wire).toHaveLength(2);
    const followUp = JSON.stringify(wire[1]!.body);
    expect(followUp).toContain(TIME_TOOL); // tools are declared on the follow-up too
    expect(followUp).toContain("Europe/Paris"); // and the tool result went back
  });
});

describe("turn control", () => {
  it("cancel aborts the provider stream, keeps the partial answer and frees the session", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    fake.script("anthropic", { steps: [{ type: "text", text: "word ".repeat(400), chunkSize: 5 }], delayMs: 20 });
    const { turnId } = await manager.startTurn(userId, sessionId, "Write a lot", choice("anthropic"));
    const partial = await waitFor(
      async () => (await sessionMessages(db, sessionId)).find((m) => m.role === "assistant"),
      (message) => !!message && messageText(message).length > 10,
    );
    expect(partial).toBeDefined();

    await manager.cancel(userId, turnId);
    const turn = await db.turn.findUniqueOrThrow({ where: { id: turnId } });
    expect(turn.status).toBe("cancelled");
    await waitFor(
      () => Promise.resolve(fake.requests("anthropic")[0]?.aborted),
      (aborted) => aborted === true,
    );
    const kept = (await sessionMessages(db, sessionId)).find((m) => m.role === "assistant")!;
    expect(messageText(kept).length).toBeGreaterThan(0);
    expect(messageText(kept).length).toBeLessThan("word ".repeat(400).length);

    fake.script("anthropic", { steps: [{ type: "text", text: "Short." }] });
    const next = await manager.startTurn(userId, sessionId, "Shorter please", choice("anthropic"));
    expect((await waitForTurnEnd(db, next.turnId)).status).toBe("completed");
  });

  it("restart supersedes the turn and answers again from the same history", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    fake.script("openai", { steps: [{ type: "text", text: "STALE ".repeat(300), chunkSize: 6 }], delayMs: 20 });
    fake.script("openai", { steps: [{ type: "text", text: "Fresh answer." }] });
    const first = await manager.startTurn(userId, sessionId, "Tell me something", choice("openai"));
    await waitFor(
      async () => (await sessionMessages(db, sessionId)).find((m) => m.role === "assistant"),
      (message) => !!message && messageText(message).includes("STALE"),
    );

    const second = await manager.restart(userId, first.turnId);
    expect((await db.turn.findUniqueOrThrow({ where: { id: first.turnId } })).status).toBe("superseded");
    const done = await waitForTurnEnd(db, second.turnId);
    expect(done).toMatchObject({ status: "completed", restartOfId: first.turnId });
    // Only the latest turn can be restarted; a refused restart writes nothing.
    await expect(manager.restart(userId, first.turnId)).rejects.toMatchObject({
      code: "conflict:turn",
      message: "Only the latest turn of a chat can be restarted.",
    });
    expect(await db.turn.count({ where: { sessionId } })).toBe(2);
    expect((await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } })).activeTurnId).toBeNull();

    const wire = fake.requests("openai");
    expect(wire).toHaveLength(2);
    expect(JSON.stringify(wire[1]!.body)).not.toContain("STALE");
    expect(JSON.stringify(wire[1]!.body)).toContain("Tell me something");
    const answers = (await sessionMessages(db, sessionId)).filter((m) => m.turnId === second.turnId);
    expect(answers.map(messageText)).toEqual(["Fresh answer."]);

    fake.script("openai", { steps: [{ type: "text", text: "Later answer." }] });
    const third = await manager.startTurn(userId, sessionId, "And then?", choice("openai"));
    expect((await waitForTurnEnd(db, third.turnId)).status).toBe("completed");
    const later = JSON.stringify(fake.requests("openai")[2]!.body);
    expect(later).not.toContain("STALE"); // superseded output never reaches a model, later turns included
    expect(later).toContain("Fresh answer.");
  });

  it("refuses a second send while a turn runs, with a clear conflict", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    fake.script("google", { steps: [{ type: "text", text: "slow ".repeat(100), chunkSize: 5 }], delayMs: 15 });
    const { turnId } = await manager.startTurn(userId, sessionId, "First", choice("google"));
    const second = manager.startTurn(userId, sessionId, "Second", choice("google"));
    await expect(second).rejects.toBeInstanceOf(AppError);
    await expect(second).rejects.toMatchObject({ code: "conflict:turn" });
    await manager.cancel(userId, turnId);
  });

  it("another user can neither cancel nor restart the turn", async () => {
    const { db, fake, manager } = engine;
    const alice = await createUserWithSession(db, "Alice");
    const bob = await createUserWithSession(db, "Bob");
    fake.clear();
    fake.script("anthropic", { steps: [{ type: "text", text: "Hi." }] });
    const { turnId } = await manager.startTurn(alice.userId, alice.sessionId, "Hello", choice("anthropic"));
    await expect(manager.cancel(bob.userId, turnId)).rejects.toMatchObject({ code: "not_found:turn" });
    await expect(manager.restart(bob.userId, turnId)).rejects.toMatchObject({ code: "not_found:turn" });
    await expect(manager.startTurn(bob.userId, alice.sessionId, "mine?")).rejects.toMatchObject({
      code: "not_found:session",
    });
    await waitForTurnEnd(db, turnId);
  });
});

describe("history across providers and tools", () => {
  it("switches provider mid-session without sending another provider's ids or signatures", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    fake.script("anthropic", {
      steps: [
        { type: "reasoning", text: "Need the time.", signature: "ANTHROPIC-SIGNATURE-123" },
        { type: "tool-call", name: TIME_TOOL, args: {}, id: "toolu_01ABCDEF" },
      ],
    });
    fake.script("anthropic", { steps: [{ type: "text", text: "Done." }] });
    const first = await manager.startTurn(userId, sessionId, "Time?", choice("anthropic"));
    expect((await waitForTurnEnd(db, first.turnId)).status).toBe("completed");

    for (const provider of ["openai", "google"] as const) {
      fake.script(fakeIdFor(provider), { steps: [{ type: "text", text: `Hello from ${provider}.` }] });
      const next = await manager.startTurn(userId, sessionId, `Now ${provider}`, choice(provider));
      expect((await waitForTurnEnd(db, next.turnId)).status).toBe("completed");
      const body = JSON.stringify(fake.requests(fakeIdFor(provider)).at(-1)!.body);
      expect(body).not.toContain("ANTHROPIC-SIGNATURE-123");
      expect(body).not.toContain("toolu_01ABCDEF");
      expect(body).toContain("Time?");
    }
  });

  it("turns unknown, failing and slow tools into error results the model sees", async () => {
    const slowEngine = await createTestEngine({
      toolTimeoutMs: 200,
      tools: {
        snapshot: () =>
          Promise.resolve({
            revision: 0,
            tools: [
              {
                canonicalName: "test.slow",
                exposedName: "test_slow",
                description: "slow",
                inputSchema: { type: "object" },
              },
            ],
          }),
        call: (_session, _request, signal) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => resolve({ output: "late", isError: false }), 10_000);
            signal.addEventListener("abort", () => clearTimeout(timer));
          }),
      },
    });
    try {
      const { db, fake, manager } = slowEngine;
      const { userId, sessionId } = await createUserWithSession(db);
      fake.script("anthropic", {
        steps: [
          { type: "tool-call", name: "test_slow", args: {} },
          { type: "tool-call", name: "no_such_tool", args: {} },
        ],
      });
      fake.script("anthropic", { steps: [{ type: "text", text: "Both failed." }] });
      const { turnId } = await manager.startTurn(userId, sessionId, "Try tools", choice("anthropic"));
      expect((await waitForTurnEnd(db, turnId)).status).toBe("completed");
      const tool = (await sessionMessages(db, sessionId)).find((m) => m.role === "tool")!;
      const results = tool.parts as { isError: boolean; output: { error: { code: string } } }[];
      expect(results.map((r) => [r.isError, r.output.error.code])).toEqual([
        [true, "timeout"],
        [true, "unknown_tool"],
      ]);
    } finally {
      await slowEngine.close();
    }
  });
});

describe("the event stream", () => {
  it("resumes from the last seen id with no duplicated or missing text", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    const text = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
    fake.script("anthropic", { steps: [{ type: "text", text, chunkSize: 4 }], delayMs: 10 });
    const { turnId } = await manager.startTurn(userId, sessionId, "Count", choice("anthropic"));

    const seen: string[] = [];
    let lastId: string | null = null;
    const firstConnection = new AbortController();
    for await (const event of followEvents(db, sessionId, null, firstConnection.signal)) {
      lastId = event.id;
      if (event.type === "text.delta") seen.push(String(event.data.text));
      if (seen.length >= 3) break; // the browser "reloads" mid-turn
    }
    firstConnection.abort();
    await waitForTurnEnd(db, turnId);

    const rest = await readEventsAfter(db, sessionId, lastId);
    for (const event of rest) if (event.type === "text.delta") seen.push(String(event.data.text));
    expect(seen.join("")).toBe(text);
    expect(rest.at(-1)).toMatchObject({ type: "turn.finished", data: { status: "completed" } });
  });
});

describe("history and events together", () => {
  it("a history read mid-answer plus the events after its lastEventId gives the whole answer", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    fake.clear();
    const text = Array.from({ length: 80 }, (_, i) => `t${i}`).join(" ");
    fake.script("anthropic", { steps: [{ type: "text", text, chunkSize: 3 }], delayMs: 8 });
    const { turnId } = await manager.startTurn(userId, sessionId, "Go", choice("anthropic"));
    const reads: { partial: string; lastEventId: string | null }[] = [];
    while ((await db.turn.findUniqueOrThrow({ where: { id: turnId } })).status === "streaming") {
      const history = await getSessionHistory(db, userId, sessionId); // what a reload loads
      const answer = history.messages.find((m) => m.role === "assistant");
      const partial = answer?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
      reads.push({ partial, lastEventId: history.lastEventId });
      await new Promise((resolve) => setTimeout(resolve, 37));
    }
    expect(reads.length).toBeGreaterThan(3);
    for (const read of reads) {
      const rest = await readEventsAfter(db, sessionId, read.lastEventId);
      const more = rest.filter((event) => event.type === "text.delta").map((event) => String(event.data.text));
      expect(read.partial + more.join("")).toBe(text);
    }
  });
});

describe("tool loop limits and text tool calls", () => {
  it("stops at the step cap with a clear note, after one last request without tools", async () => {
    const capped = await createTestEngine({ maxSteps: 2 });
    try {
      const { db, fake, manager } = capped;
      const { userId, sessionId } = await createUserWithSession(db);
      for (let i = 0; i < 2; i++)
        fake.script("anthropic", { steps: [{ type: "tool-call", name: TIME_TOOL, args: {} }] });
      fake.script("anthropic", { steps: [{ type: "text", text: "That is all I could do." }] });
      const { turnId } = await manager.startTurn(userId, sessionId, "Loop forever", choice("anthropic"));
      const turn = await waitForTurnEnd(db, turnId);
      expect(turn).toMatchObject({ status: "completed", stepCount: 3 });
      expect(turn.error).toMatchObject({ code: "step_limit" });
      expect(fake.requests("anthropic")).toHaveLength(3); // see step-limit.integration.test.ts
    } finally {
      await capped.close();
    }
  });

  it("runs tool calls a model without native tools writes as XML in its answer", async () => {
    const textTools = await createTestEngine({}, { isNativeTools: (provider) => provider !== "openai-compatible" });
    try {
      const { db, fake, manager } = textTools;
      const { userId, sessionId } = await createUserWithSession(db);
      const xml =
        '<tool_use><server>builtin</server><tool>current_time</tool><arguments>{"timezone":"UTC"}</arguments></tool_use>';
      fake.script("compat", { steps: [{ type: "text", text: `Let me look. ${xml}` }] });
      fake.script("compat", { steps: [{ type: "text", text: "It is now." }] });
      const { turnId } = await manager.startTurn(userId, sessionId, "Time in UTC?", choice("openai-compatible"));
      expect((await waitForTurnEnd(db, turnId)).status).toBe("completed");

      const messages = await sessionMessages(db, sessionId);
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
      expect(messageText(messages[1]!)).not.toContain("<tool_use>");
      const [result] = messages[2]!.parts as { isError: boolean; output: { timezone: string } }[];
      expect(result).toMatchObject({ isError: false, output: { timezone: "UTC" } });
      const [first, followUp] = fake.requests("compat").map((r) => r.body as { tools?: unknown; messages: unknown });
      expect(first!.tools).toBeUndefined(); // tools are described in the system prompt instead
      expect(JSON.stringify(followUp!.messages)).toContain("UTC");
    } finally {
      await textTools.close();
    }
  });
});
