// The browser's model of one chat: the history loaded once, then every live event applied in id
// order. Pure and idempotent: an event at or below `lastEventId` is ignored, so a reconnect that
// replays from the last seen id can never duplicate text, and a gap can never be skipped silently.
// Tool approvals and followup questions are keyed by call id (a pending one is the prompt the call's card shows); limit
// notes are kept per turn, rebuilt after a reload from the stored results of calls a limit stopped.
import type { HistoryPolicyDto, MessageDto, PartDto, SessionHistoryDto, TurnDto } from "@/server/session/history.ts";

import { applyApproval, expireApprovals } from "./approval-state.ts";
import { applyQuestion, expireQuestions, questionsFromHistory } from "./question-state.ts";
import type {
  ApprovalStatus,
  ApprovalView,
  ChatEvent,
  ChatState,
  QuestionView,
  ToolProgressView,
  ToolResultView,
} from "./chat-state-types.ts";

export type { ApprovalStatus, ApprovalView, ChatEvent, ChatState, QuestionView, ToolProgressView, ToolResultView };

/** Error codes of results of calls that a tool-call limit stopped; their message is the limit's. */
const LIMIT_ERROR_CODES = new Set(["too_many_calls", "rate_limited"]);

function limitMessageOf(output: unknown): string | null {
  const error = (output as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return error && LIMIT_ERROR_CODES.has(String(error.code)) && typeof error.message === "string" ? error.message : null;
}

function addLimitNote(notes: ChatState["limitNotes"], turnId: string | null, message: string) {
  if (turnId === null || notes[turnId]?.includes(message)) return notes;
  return { ...notes, [turnId]: [...(notes[turnId] ?? []), message] };
}

export function createChatState(history: SessionHistoryDto & HistoryPolicyDto): ChatState {
  const toolResults: Record<string, ToolResultView> = {};
  let limitNotes: ChatState["limitNotes"] = {};
  for (const message of history.messages) {
    for (const part of message.parts) {
      if (part.type !== "tool-result") continue;
      toolResults[part.callId] = {
        output: part.output,
        isError: part.isError,
        ...(part.durationMs !== undefined && { durationMs: part.durationMs }),
      };
      const limit = part.isError ? limitMessageOf(part.output) : null;
      if (limit) limitNotes = addLimitNote(limitNotes, message.turnId, limit);
    }
  }
  const approvals: ChatState["approvals"] = {};
  for (const approval of history.approvals) {
    approvals[approval.callId] = { approvalId: approval.id, turnId: approval.turnId, status: approval.status };
  }
  return {
    title: history.session.title,
    toolsRevision: history.session.toolsRevision,
    overlayRevision: history.session.overlayRevision ?? 0,
    personaId: history.personaId,
    messages: history.messages,
    turns: history.turns,
    toolResults,
    toolProgress: {},
    approvals,
    subAgents: Object.fromEntries(history.subAgentRuns.map((run) => [run.callId, run])),
    questions: questionsFromHistory(history.questions),
    limitNotes,
    lastEventId: history.lastEventId,
  };
}

function isAfter(id: string, last: string | null): boolean {
  return last === null || BigInt(id) > BigInt(last);
}

function updateMessage(state: ChatState, messageId: unknown, update: (parts: PartDto[]) => PartDto[]): ChatState {
  return {
    ...state,
    messages: state.messages.map((message) =>
      message.id === messageId ? { ...message, parts: update([...message.parts]) } : message,
    ),
  };
}

function updateTurn(state: ChatState, turnId: unknown, update: (turn: TurnDto) => TurnDto): ChatState {
  return { ...state, turns: state.turns.map((turn) => (turn.id === turnId ? update(turn) : turn)) };
}

function appendDelta(kind: "text" | "reasoning", index: number, text: string) {
  return (parts: PartDto[]) => {
    const existing = parts[index];
    parts[index] =
      existing && existing.type === kind ? { type: kind, text: existing.text + text } : { type: kind, text };
    return parts;
  };
}

function nextSeq(state: ChatState): number {
  return (state.messages.at(-1)?.seq ?? 0) + 1;
}

/** A user message (an edit marks the message it replaces; see server/session/edit-resend.ts). */
function applyUserMessage(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  if (state.messages.some((message) => message.id === data.messageId)) return state;
  return {
    ...state,
    title: typeof data.title === "string" ? data.title : state.title,
    messages: [
      ...state.messages.map((message) =>
        data.replaces && message.id === data.replaces ? { ...message, replacedBy: String(data.messageId) } : message,
      ),
      {
        id: String(data.messageId),
        seq: nextSeq(state),
        role: "user",
        turnId: null,
        parts: [{ type: "text", text: String(data.text) }],
      },
    ],
  };
}

/** An empty message the turn is about to fill (an assistant answer, or a round kept from before). */
function applyMessageCreated(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  if (state.messages.some((message) => message.id === data.messageId)) return state;
  return {
    ...state,
    messages: [
      ...state.messages,
      {
        id: String(data.messageId),
        seq: nextSeq(state),
        role: data.role as MessageDto["role"],
        turnId: event.turnId,
        parts: [],
        ...(typeof data.keptFrom === "string" && { keptFrom: data.keptFrom }),
      },
    ],
  };
}

/** A model request of a turn starts (with the revision it was shown) or finishes (with its figures). */
function applyRequestEvent(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  if (event.type === "request.started")
    return updateTurn(state, event.turnId, (turn) => ({
      ...turn,
      requests: [
        ...turn.requests,
        {
          index: Number(data.index),
          toolsRevision: Number(data.toolsRevision),
          toolNames: data.toolNames as string[],
          finishReason: null,
          ...(typeof data.overlayRevision === "number" && { overlayRevision: data.overlayRevision }),
          ...(data.overlays ? { overlays: data.overlays as TurnDto["requests"][number]["overlays"] } : {}),
        },
      ],
    }));
  return updateTurn(state, event.turnId, (turn) => ({
    ...turn,
    requests: turn.requests.map((request) =>
      request.index === Number(data.index)
        ? {
            ...request,
            finishReason: (data.finishReason as string | null) ?? null,
            inputTokens: (data.inputTokens as number | null) ?? null,
            outputTokens: (data.outputTokens as number | null) ?? null,
            durationMs: (data.durationMs as number | null) ?? null,
          }
        : request,
    ),
  }));
}

function applyData(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  switch (event.type) {
    case "user.message":
      return applyUserMessage(state, event);
    case "message.created":
      return applyMessageCreated(state, event);
    case "text.delta":
    case "reasoning.delta":
      return updateMessage(
        state,
        data.messageId,
        appendDelta(event.type === "text.delta" ? "text" : "reasoning", Number(data.partIndex), String(data.text)),
      );
    case "tool.call":
      return updateMessage(state, data.messageId, (parts) => {
        parts[Number(data.partIndex)] = data.call as PartDto;
        return parts;
      });
    case "message.updated":
      return updateMessage(state, data.messageId, () => data.parts as PartDto[]);
    case "tool.result": {
      const result = data.result as { callId: string; output: unknown; isError: boolean };
      const view = { output: result.output, isError: result.isError, durationMs: Number(data.durationMs) };
      return { ...state, toolResults: { ...state.toolResults, [result.callId]: view } };
    }
    case "tool.approval":
    case "tool.approval.decided":
      return applyApproval(state, event);
    case "tool.question":
    case "tool.question.answered":
      return applyQuestion(state, event);
    case "limit.reached":
      return { ...state, limitNotes: addLimitNote(state.limitNotes, event.turnId, String(data.message)) };
    case "turn.started":
      return applyTurnStarted(state, event);
    case "tool.progress": {
      const view: ToolProgressView = {
        progress: Number(data.progress),
        ...(typeof data.total === "number" ? { total: data.total } : {}),
        ...(typeof data.message === "string" ? { message: data.message } : {}),
      };
      return { ...state, toolProgress: { ...state.toolProgress, [String(data.callId)]: view } };
    }
    case "subagent.updated": {
      const run = data.run as ChatState["subAgents"][string];
      return { ...state, subAgents: { ...state.subAgents, [run.callId]: run } };
    }
    case "tools.changed":
      return { ...state, toolsRevision: Math.max(state.toolsRevision, Number(data.revision)) };
    case "overlays.changed":
      return { ...state, overlayRevision: Math.max(state.overlayRevision, Number(data.revision)) };
    case "request.started":
    case "request.finished":
      return applyRequestEvent(state, event);
    case "turn.finished": {
      const ended = updateTurn(state, data.turnId, (turn) => ({
        ...turn,
        status: String(data.status),
        error: (data.error as TurnDto["error"]) ?? null,
        endedAt: event.createdAt ?? turn.endedAt,
      }));
      return expireQuestions(expireApprovals(ended, String(data.turnId)), String(data.turnId));
    }
    default:
      return state;
  }
}

function applyTurnStarted(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  if (state.turns.some((turn) => turn.id === data.turnId)) return state;
  const turn: TurnDto = {
    id: String(data.turnId),
    status: "streaming",
    provider: String(data.provider),
    model: String(data.model),
    userMessageId: String(data.userMessageId),
    restartOfId: (data.restartOf as string | null) ?? null,
    error: null,
    inputTokens: null,
    outputTokens: null,
    startedAt: event.createdAt ?? new Date(0),
    endedAt: null,
    requests: [],
  };
  return { ...state, turns: [...state.turns, turn] };
}

export function applyChatEvent(state: ChatState, event: ChatEvent): ChatState {
  if (!isAfter(event.id, state.lastEventId)) return state;
  return { ...applyData(state, event), lastEventId: event.id };
}

/** The turn currently streaming, if any. */
export function findStreamingTurn(state: ChatState): TurnDto | undefined {
  return state.turns.find((turn) => turn.status === "streaming");
}
