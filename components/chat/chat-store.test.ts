// The chat store and what streaming re-renders, against the real reducer: a streamed chunk leaves
// the page's facts the same object (the page around the conversation does not re-render) and a
// settled exchange's props equal (it is skipped), while the live exchange's differ; a turn that
// starts or ends changes the facts. Subscribers hear only of real changes.
import { describe, expect, it, vi } from "vitest";

import { applyChatEvent, createChatState, type ChatEvent, type ChatState } from "./chat-state.ts";
import { createChatStore, memoizeSelector } from "./chat-store.ts";
import { buildHistory } from "./history-fixture.ts";
import { areExchangePropsEqual, type ExchangeProps } from "./exchange-props-equal.ts";
import { pageFactsOf, selectPageFacts } from "./page-facts.ts";

const history = buildHistory({ session: { toolsRevision: 3 } });

let nextId = 1;
function event(turnId: string, type: string, data: Record<string, unknown>): ChatEvent {
  const created: ChatEvent = { id: String(nextId++), turnId, type, data };
  return created;
}

function startTurn(n: number): ChatEvent[] {
  const [t, u, a] = [`t${n}`, `u${n}`, `a${n}`];
  return [
    event(t, "user.message", { messageId: u, text: `question ${n}`, title: "Questions" }),
    event(t, "turn.started", { turnId: t, provider: "openai", model: "m", userMessageId: u, restartOf: null }),
    event(t, "request.started", { index: 0, toolsRevision: 3, toolNames: [] }),
    event(t, "message.created", { messageId: a, role: "assistant" }),
  ];
}

const delta = (n: number, text: string) => event(`t${n}`, "text.delta", { messageId: `a${n}`, partIndex: 0, text });
const finish = (n: number) => event(`t${n}`, "turn.finished", { turnId: `t${n}`, status: "completed", error: null });
const replay = (events: ChatEvent[], from: ChatState) => events.reduce(applyChatEvent, from);

/** The records object, kept while its parts are the same (the conversation's useMemo). */
const recordsOf = memoizeSelector((state: ChatState | null) => {
  const { toolResults, toolProgress, approvals, subAgents, questions, limitNotes } = state!;
  return { toolResults, toolProgress, approvals, subAgents, questions, limitNotes };
});

/** A message's turns, kept while the chat's turns are the same list (the conversation's useMemo). */
const turnsByList = new WeakMap<ChatState["turns"], Map<string, ChatState["turns"]>>();
function turnsOf(state: ChatState, messageId: string): ChatState["turns"] {
  const groups = turnsByList.get(state.turns) ?? new Map<string, ChatState["turns"]>();
  turnsByList.set(state.turns, groups);
  if (!groups.has(messageId))
    groups.set(
      messageId,
      state.turns.filter((turn) => turn.userMessageId === messageId),
    );
  return groups.get(messageId)!;
}

/** The props the conversation gives the exchange of user message `u<n>`. */
function exchangeProps(state: ChatState, n: number): ExchangeProps {
  const turns = turnsOf(state, `u${n}`);
  return {
    message: state.messages.find((message) => message.id === `u${n}`)!,
    turns,
    turnMessages: turns.map((turn) => state.messages.filter((message) => message.turnId === turn.id)),
    allTurns: state.turns,
    records: recordsOf(state),
    canEdit: false,
    retryTurnId: null,
    isLast: false,
    onEdit: editStub,
    onRetry: retryStub,
  };
}
const editStub = () => Promise.resolve(true);
const retryStub = () => undefined;

describe("the chat store", () => {
  it("tells its subscribers of a new state, and of nothing when the update kept the state", () => {
    const store = createChatStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.update(() => createChatState(history));
    const state = store.get();
    store.update((current) => current);
    expect(listener).toHaveBeenCalledTimes(1);
    store.update((current) => replay(startTurn(1), current!));
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.get()).not.toBe(state);
    unsubscribe();
    store.update(() => null);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("a memoised selector gives the same object for an equal pick", () => {
    const select = memoizeSelector((state: ChatState | null) => ({ title: state?.title ?? "" }));
    const first = select(createChatState(history));
    expect(select(createChatState(history))).toBe(first);
    expect(select({ ...createChatState(history), title: "Renamed" })).toEqual({ title: "Renamed" });
  });
});

describe("while an answer streams", () => {
  const settled = replay([...startTurn(1), delta(1, "first answer"), finish(1)], createChatState(history));
  const streaming = replay([...startTurn(2), delta(2, "Hel")], settled);
  const chunk = replay([delta(2, "lo")], streaming);

  it("a chunk leaves the page's facts alone; a turn starting or ending changes them", () => {
    expect(selectPageFacts(streaming)).toEqual({
      ...pageFactsOf(settled),
      streamingTurnId: "t2",
      streamingToolsRevision: 3,
    });
    expect(selectPageFacts(chunk)).toBe(selectPageFacts(streaming));
    const ended = replay([finish(2)], chunk);
    expect(selectPageFacts(ended)).not.toBe(selectPageFacts(chunk));
    expect(selectPageFacts(ended)?.streamingTurnId).toBeNull();
  });

  it("a chunk leaves a settled exchange's props equal and changes the live one's", () => {
    expect(areExchangePropsEqual(exchangeProps(streaming, 1), exchangeProps(chunk, 1))).toBe(true);
    expect(areExchangePropsEqual(exchangeProps(streaming, 2), exchangeProps(chunk, 2))).toBe(false);
  });

  it("a tool result changes every exchange's records, so each looks again", () => {
    const result = event("t2", "tool.result", { result: { callId: "c9", output: 1, isError: false }, durationMs: 1 });
    const after = replay([result], chunk);
    expect(areExchangePropsEqual(exchangeProps(chunk, 1), exchangeProps(after, 1))).toBe(false);
  });
});
