import { describe, expect, it } from "vitest";

import type { SessionHistoryDto } from "@/server/session/history.ts";

import { applyChatEvent, createChatState, findStreamingTurn, type ChatEvent } from "./chat-state.ts";

const history: SessionHistoryDto = {
  session: {
    id: "s1",
    title: "New chat",
    createdAt: new Date(0),
    updatedAt: new Date(0),
    provider: null,
    model: null,
    activeTurnId: null,
    toolsRevision: 0,
  },
  messages: [],
  turns: [],
  lastEventId: null,
};

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
