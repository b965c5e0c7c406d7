// Followup questions in the browser's chat model, keyed by call id: opened by `tool.question`,
// answered by `tool.question.answered`, and expired when their turn ends while still pending (the
// server expires them too, so a reload shows the same).
import type { QuestionDto } from "@/server/policy/followup-questions.ts";

import type { ChatEvent, ChatState, QuestionView } from "./chat-state-types.ts";

export function questionsFromHistory(questions: QuestionDto[]): ChatState["questions"] {
  return Object.fromEntries(
    questions.map((row) => [
      row.callId,
      {
        questionId: row.id,
        turnId: row.turnId,
        question: row.question,
        options: row.options,
        status: row.status,
        answer: row.answer,
      },
    ]),
  );
}

/** `tool.question` opens a pending question; `tool.question.answered` records the answer. */
export function applyQuestion(state: ChatState, event: ChatEvent): ChatState {
  const callId = String(event.data.callId);
  const known = state.questions[callId];
  const question: QuestionView =
    event.type === "tool.question"
      ? {
          questionId: String(event.data.questionId),
          turnId: String(event.turnId),
          question: String(event.data.question),
          options: Array.isArray(event.data.options) ? event.data.options.map(String) : [],
          status: "pending",
          answer: null,
        }
      : {
          questionId: String(event.data.questionId),
          turnId: known?.turnId ?? String(event.turnId),
          question: known?.question ?? "",
          options: known?.options ?? [],
          status: "answered",
          answer: String(event.data.answer),
        };
  return { ...state, questions: { ...state.questions, [callId]: question } };
}

/** A turn that ended can no longer take the answers it was waiting for. */
export function expireQuestions(state: ChatState, turnId: string): ChatState {
  const entries = Object.entries(state.questions);
  if (!entries.some(([, question]) => question.turnId === turnId && question.status === "pending")) return state;
  const questions = Object.fromEntries(
    entries.map(([callId, question]) => [
      callId,
      question.turnId === turnId && question.status === "pending"
        ? { ...question, status: "expired" as const }
        : question,
    ]),
  );
  return { ...state, questions };
}
