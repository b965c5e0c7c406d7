import { describe, expect, it } from "vitest";

import { applyChatEvent, createChatState, type ChatEvent, type ChatState } from "./chat-state.ts";
import { buildHistory } from "./history-fixture.ts";

const history = buildHistory({ session: { activeTurnId: "t1", toolsRevision: 1 }, lastEventId: "10" });

const asked: ChatEvent = {
  id: "11",
  turnId: "t1",
  type: "tool.question",
  data: { questionId: "q1", callId: "c1", question: "Which colour?", options: ["Red", "Blue"] },
};
const answered: ChatEvent = {
  id: "12",
  turnId: "t1",
  type: "tool.question.answered",
  data: { questionId: "q1", callId: "c1", answer: "Blue" },
};
const finished = (id: string, turnId: string): ChatEvent => ({
  id,
  turnId,
  type: "turn.finished",
  data: { turnId, status: "cancelled", error: null },
});

function replay(list: ChatEvent[], state: ChatState = createChatState(history)): ChatState {
  return list.reduce(applyChatEvent, state);
}

describe("chat state: followup questions", () => {
  it("opens a pending question by call id, then records the answer", () => {
    expect(replay([asked]).questions).toEqual({
      c1: {
        questionId: "q1",
        turnId: "t1",
        question: "Which colour?",
        options: ["Red", "Blue"],
        status: "pending",
        answer: null,
      },
    });
    expect(replay([asked, answered]).questions.c1).toMatchObject({
      status: "answered",
      answer: "Blue",
      question: "Which colour?",
    });
  });

  it("expires a pending question when its turn ends, and only that turn's", () => {
    const other: ChatEvent = {
      ...asked,
      id: "9",
      turnId: "t0",
      data: { ...asked.data, questionId: "q0", callId: "c0" },
    };
    const state = replay(
      [asked, finished("13", "t1")],
      replay([other], createChatState({ ...history, lastEventId: "8" })),
    );
    expect(state.questions.c1!.status).toBe("expired");
    expect(state.questions.c0!.status).toBe("pending");
    expect(replay([asked, answered, finished("13", "t1")]).questions.c1!.status).toBe("answered");
  });

  it("starts from the history's questions, so a reload shows a pending one again", () => {
    const row = {
      id: "q1",
      turnId: "t1",
      callId: "c1",
      question: "Which colour?",
      options: ["Red", "Blue"],
      answer: null,
      status: "pending" as const,
      createdAt: new Date(0),
      answeredAt: null,
    };
    const state = createChatState({ ...history, questions: [row] });
    expect(state.questions.c1).toMatchObject({ questionId: "q1", status: "pending", options: ["Red", "Blue"] });
    expect(applyChatEvent(state, answered).questions.c1).toMatchObject({ status: "answered", answer: "Blue" });
  });
});
