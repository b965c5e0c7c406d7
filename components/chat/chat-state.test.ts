import { describe, expect, it } from "vitest";

import type { MessageDto } from "@/server/session/history.ts";

import { applyChatEvent, createChatState, findStreamingTurn, type ChatEvent } from "./chat-state.ts";
import { buildHistory } from "./history-fixture.ts";

const history = buildHistory();

/** The history of a chat with one stored tool message, of `parts`. */
const withToolMessage = (parts: MessageDto["parts"]) =>
  buildHistory({ messages: [{ id: "m1", seq: 1, role: "tool", turnId: "t1", parts }] });

const events: ChatEvent[] = [
  { id: "1", turnId: "t1", type: "user.message", data: { messageId: "u1", text: "Hi", title: "Hi" } },
  {
    id: "2",
    turnId: "t1",
    type: "turn.started",
    data: { turnId: "t1", provider: "anthropic", model: "m", userMessageId: "u1", restartOf: null },
  },
  { id: "3", turnId: "t1", type: "message.created", data: { messageId: "a1", role: "assistant" } },
  { id: "4", turnId: "t1", type: "text.delta", data: { messageId: "a1", partIndex: 0, text: "Hel" } },
  { id: "5", turnId: "t1", type: "text.delta", data: { messageId: "a1", partIndex: 0, text: "lo" } },
  {
    id: "6",
    turnId: "t1",
    type: "tool.call",
    data: { messageId: "a1", partIndex: 1, call: { type: "tool-call", id: "c1", name: "builtin.x", args: {} } },
  },
  {
    id: "7",
    turnId: "t1",
    type: "tool.result",
    data: { result: { callId: "c1", output: { ok: 1 }, isError: false }, durationMs: 12 },
  },
  { id: "8", turnId: "t1", type: "turn.finished", data: { turnId: "t1", status: "completed", error: null } },
];

const replay = (list: ChatEvent[]) => list.reduce(applyChatEvent, createChatState(history));

describe("chat state", () => {
  it("marks the message an edit replaced and appends the edited one", () => {
    const edit: ChatEvent[] = [
      { id: "9", turnId: "t1", type: "turn.finished", data: { turnId: "t1", status: "superseded" } },
      { id: "10", turnId: "t2", type: "user.message", data: { messageId: "u2", text: "Hey", replaces: "u1" } },
    ];
    const state = replay([...events, ...edit]);
    expect(state.messages.map((m) => [m.id, m.replacedBy])).toEqual([
      ["u1", "u2"],
      ["a1", undefined],
      ["u2", undefined],
    ]);
    expect(state.turns[0]!.status).toBe("superseded");
    expect(state.title).toBe("Hi"); // an edit keeps the chat's title
  });

  it("builds messages, tool results, title and turn status from events", () => {
    const state = replay(events);
    expect(state.title).toBe("Hi");
    expect(state.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(state.messages[1]!.parts).toEqual([
      { type: "text", text: "Hello" },
      { type: "tool-call", id: "c1", name: "builtin.x", args: {} },
    ]);
    expect(state.toolResults.c1).toEqual({ output: { ok: 1 }, isError: false, durationMs: 12 });
    expect(state.turns[0]!.status).toBe("completed");
    expect(state.lastEventId).toBe("8");
  });

  it("ignores events it has already applied, so a replayed reconnect never duplicates text", () => {
    const once = replay(events);
    const twice = replay([...events.slice(0, 5), ...events.slice(2, 5), ...events.slice(5)]);
    expect(twice).toEqual(once);
  });

  it("reports the streaming turn until it finishes", () => {
    expect(findStreamingTurn(replay(events.slice(0, 5)))?.id).toBe("t1");
    expect(findStreamingTurn(replay(events))).toBeUndefined();
  });
});

describe("chat state: the turn audit and Apply now's kept rounds", () => {
  const started: ChatEvent = {
    id: "9",
    turnId: "t1",
    type: "request.started",
    data: { index: 0, toolsRevision: 3, toolNames: ["builtin_x"] },
  };

  it("fills a live request's usage and time when it finishes, leaving the other requests alone", () => {
    const second: ChatEvent = { ...started, id: "10", data: { index: 1, toolsRevision: 4, toolNames: [] } };
    const finished: ChatEvent = {
      id: "11",
      turnId: "t1",
      type: "request.finished",
      data: { index: 0, finishReason: "tool-calls", inputTokens: 120, outputTokens: 7, durationMs: 340 },
    };
    const state = replay([...events.slice(0, 2), started, second, finished]);
    expect(state.turns[0]!.requests).toEqual([
      {
        index: 0,
        toolsRevision: 3,
        toolNames: ["builtin_x"],
        finishReason: "tool-calls",
        inputTokens: 120,
        outputTokens: 7,
        durationMs: 340,
      },
      { index: 1, toolsRevision: 4, toolNames: [], finishReason: null },
    ]);
  });

  it("marks messages Apply now carried over from the replaced answer", () => {
    const kept: ChatEvent = {
      id: "9",
      turnId: "t1",
      type: "message.created",
      data: { messageId: "a2", role: "assistant", keptFrom: "a0" },
    };
    const state = replay([...events.slice(0, 3), kept]);
    expect(state.messages.map((m) => [m.id, m.keptFrom])).toEqual([
      ["u1", undefined],
      ["a1", undefined],
      ["a2", "a0"],
    ]);
  });

  it("keeps a stored tool result's duration after a reload", () => {
    const state = createChatState(
      withToolMessage([
        { type: "tool-result", callId: "c1", name: "builtin.x", output: 1, isError: false, durationMs: 42 },
      ]),
    );
    expect(state.toolResults.c1).toEqual({ output: 1, isError: false, durationMs: 42 });
  });
});

const started = (id: string, turnId: string): ChatEvent[] => [
  { id: `${id}1`, turnId, type: "user.message", data: { messageId: `u-${turnId}`, text: "Sum", title: "Sum" } },
  {
    id: `${id}2`,
    turnId,
    type: "turn.started",
    data: { turnId, provider: "anthropic", model: "m", userMessageId: `u-${turnId}`, restartOf: null },
  },
];
const asked: ChatEvent = {
  id: "13",
  turnId: "t1",
  type: "tool.approval",
  data: { approvalId: "ap1", callId: "c1", name: "everything.get-sum", args: { a: 2, b: 3 } },
};
const decided = (status: "approved" | "denied"): ChatEvent => ({
  id: "14",
  turnId: "t1",
  type: "tool.approval.decided",
  data: { approvalId: "ap1", callId: "c1", name: "everything.get-sum", status },
});
const finished: ChatEvent = {
  id: "15",
  turnId: "t1",
  type: "turn.finished",
  data: { turnId: "t1", status: "cancelled", error: null },
};

describe("chat state: tool approvals", () => {
  it("opens a pending approval by call id, then records the decision", () => {
    const waiting = replay([...started("1", "t1"), asked]);
    expect(waiting.approvals).toEqual({ c1: { approvalId: "ap1", turnId: "t1", status: "pending" } });
    expect(replay([...started("1", "t1"), asked, decided("approved")]).approvals.c1!.status).toBe("approved");
    expect(replay([...started("1", "t1"), asked, decided("denied")]).approvals.c1!.status).toBe("denied");
  });

  it("ignores a replayed approval event, so a decision is never reopened", () => {
    const list = [...started("1", "t1"), asked, decided("approved")];
    expect(replay([...list, asked, ...list])).toEqual(replay(list));
  });

  it("expires a pending approval when its turn ends, and only that turn's", () => {
    const other: ChatEvent = {
      ...asked,
      id: "9",
      turnId: "t0",
      data: { ...asked.data, approvalId: "ap0", callId: "c0" },
    };
    const state = replay([other, ...started("1", "t1"), asked, finished]);
    expect(state.approvals.c1!.status).toBe("expired");
    expect(state.approvals.c0!.status).toBe("pending");
    expect(replay([...started("1", "t1"), asked, decided("approved"), finished]).approvals.c1!.status).toBe("approved");
  });

  it("starts from the history's approvals and persona, so a reload still shows the prompt", () => {
    const approval = {
      id: "ap1",
      turnId: "t1",
      callId: "c1",
      toolName: "everything.get-sum",
      args: { a: 2, b: 3 },
      status: "pending" as const,
      createdAt: new Date(0),
      decidedAt: null,
    };
    const state = createChatState({ ...history, personaId: "p1", approvals: [approval], lastEventId: "13" });
    expect(state.personaId).toBe("p1");
    expect(state.approvals).toEqual({ c1: { approvalId: "ap1", turnId: "t1", status: "pending" } });
    expect(applyChatEvent(state, decided("denied")).approvals.c1!.status).toBe("denied");
    expect(applyChatEvent(state, asked)).toBe(state);
  });
});

describe("chat state: limits", () => {
  const limit = (id: string, message: string): ChatEvent => ({
    id,
    turnId: "t1",
    type: "limit.reached",
    data: { limit: "tool_calls_per_response", max: 2, callIds: ["c3"], message },
  });

  it("keeps each limit message once per turn, in order", () => {
    const state = replay([
      ...started("1", "t1"),
      limit("13", "Too many"),
      limit("14", "Rate"),
      limit("15", "Too many"),
    ]);
    expect(state.limitNotes).toEqual({ t1: ["Too many", "Rate"] });
    expect(replay([...started("1", "t1"), limit("13", "Too many"), limit("13", "Other")]).limitNotes).toEqual({
      t1: ["Too many"],
    });
  });

  it("rebuilds the notes from the stored results of calls a limit stopped", () => {
    const stopped = (callId: string, code: string, message: string) => ({
      type: "tool-result" as const,
      callId,
      name: "everything.get-sum",
      output: { error: { code, message } },
      isError: true,
    });
    const state = createChatState(
      withToolMessage([
        stopped("c1", "too_many_calls", "Too many"),
        stopped("c2", "too_many_calls", "Too many"),
        stopped("c3", "denied", "The user denied this tool call."),
        stopped("c4", "rate_limited", "Rate"),
      ]),
    );
    expect(state.limitNotes).toEqual({ t1: ["Too many", "Rate"] });
    expect(state.toolResults.c3!.isError).toBe(true);
  });

  it("keeps the latest progress of a running tool", () => {
    const progress: ChatEvent[] = [
      { id: "9", turnId: "t1", type: "tool.progress", data: { callId: "c1", progress: 1, total: 4 } },
      { id: "10", turnId: "t1", type: "tool.progress", data: { callId: "c1", progress: 2, total: 4, message: "half" } },
    ];
    const state = replay([...events, ...progress]);
    expect(state.toolProgress.c1).toEqual({ progress: 2, total: 4, message: "half" });
  });
});
