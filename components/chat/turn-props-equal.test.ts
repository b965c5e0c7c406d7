// The memo comparison against the real reducer: a second answer streaming leaves the first turn's
// props equal (the reducer keeps what it did not change), and each change of a turn's own content
// makes them differ.
import { describe, expect, it } from "vitest";

import { applyChatEvent, createChatState, type ChatEvent, type ChatState } from "./chat-state.ts";
import { buildHistory } from "./history-fixture.ts";
import { areTurnPropsEqual, type TurnMemoProps } from "./turn-props-equal.ts";

const history = buildHistory();

function turnEvents(n: number, first: number): ChatEvent[] {
  const [t, u, a, c] = [`t${n}`, `u${n}`, `a${n}`, `c${n}`];
  const id = (k: number) => String(first + k);
  return [
    { id: id(0), turnId: t, type: "user.message", data: { messageId: u, text: "Hi", title: "Hi" } },
    {
      id: id(1),
      turnId: t,
      type: "turn.started",
      data: { turnId: t, provider: "anthropic", model: "m", userMessageId: u, restartOf: null },
    },
    { id: id(2), turnId: t, type: "message.created", data: { messageId: a, role: "assistant" } },
    { id: id(3), turnId: t, type: "text.delta", data: { messageId: a, partIndex: 0, text: "Hello" } },
    {
      id: id(4),
      turnId: t,
      type: "tool.call",
      data: { messageId: a, partIndex: 1, call: { type: "tool-call", id: c, name: "builtin.x", args: {} } },
    },
  ];
}

function propsOf(state: ChatState, turnId: string): TurnMemoProps {
  return {
    turn: state.turns.find((turn) => turn.id === turnId)!,
    messages: state.messages.filter((message) => message.turnId === turnId),
    toolResults: state.toolResults,
    toolProgress: state.toolProgress,
    approvals: state.approvals,
    questions: state.questions,
    limitNotes: state.limitNotes[turnId] ?? [],
  };
}

const replay = (list: ChatEvent[], from = createChatState(history)) => list.reduce(applyChatEvent, from);

describe("areTurnPropsEqual", () => {
  const settled = replay([
    ...turnEvents(1, 1),
    {
      id: "6",
      turnId: "t1",
      type: "tool.result",
      data: { result: { callId: "c1", output: { ok: 1 }, isError: false }, durationMs: 3 },
    },
    { id: "7", turnId: "t1", type: "turn.finished", data: { turnId: "t1", status: "completed", error: null } },
    ...turnEvents(2, 10),
  ]);

  it("keeps a settled turn equal while another answer streams and its tools report", () => {
    const next = replay(
      [
        { id: "20", turnId: "t2", type: "text.delta", data: { messageId: "a2", partIndex: 0, text: " there" } },
        {
          id: "21",
          turnId: "t2",
          type: "tool.result",
          data: { result: { callId: "c2", output: { ok: 2 }, isError: false }, durationMs: 5 },
        },
      ],
      settled,
    );
    expect(areTurnPropsEqual(propsOf(settled, "t1"), propsOf(next, "t1"))).toBe(true);
    expect(areTurnPropsEqual(propsOf(settled, "t2"), propsOf(next, "t2"))).toBe(false);
  });

  it("tells a changed tool result, status, label or retry apart", () => {
    const withResult = replay(
      [
        {
          id: "20",
          turnId: "t2",
          type: "tool.result",
          data: { result: { callId: "c2", output: 1, isError: true }, durationMs: 1 },
        },
      ],
      settled,
    );
    expect(areTurnPropsEqual(propsOf(settled, "t2"), propsOf(withResult, "t2"))).toBe(false);
    const finished = replay(
      [{ id: "20", turnId: "t2", type: "turn.finished", data: { turnId: "t2", status: "completed", error: null } }],
      settled,
    );
    expect(areTurnPropsEqual(propsOf(settled, "t2"), propsOf(finished, "t2"))).toBe(false);
    const base = propsOf(settled, "t1");
    expect(areTurnPropsEqual(base, { ...base, supersededLabel: "Its answer" })).toBe(false);
    expect(areTurnPropsEqual(base, { ...base, onRetry: () => {} })).toBe(false);
    expect(areTurnPropsEqual({ ...base, onRetry: () => {} }, { ...base, onRetry: () => {} })).toBe(true);
  });
});
