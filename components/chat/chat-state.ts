// The browser's model of one chat: the history loaded once, then every live event applied in id
// order. Pure and idempotent: an event at or below `lastEventId` is ignored, so a reconnect that
// replays from the last seen id can never duplicate text, and a gap can never be skipped silently.
// Tool approvals are keyed by call id (a pending one is the prompt the call's card shows); limit
// notes are kept per turn, rebuilt after a reload from the stored results of calls a limit stopped.
import type { ApprovalDto } from "@/server/policy/approvals.ts";
import type { HistoryPolicyDto, MessageDto, PartDto, SessionHistoryDto, TurnDto } from "@/server/session/history.ts";

export type ChatEvent = {
  id: string;
  turnId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt?: Date;
};

export type ToolResultView = { output: unknown; isError: boolean; durationMs?: number };
export type ToolProgressView = { progress: number; total?: number; message?: string };

export type ApprovalStatus = ApprovalDto["status"];
/** One tool call's approval; `pending` until the user decides or the turn ends (then `expired`). */
export type ApprovalView = { approvalId: string; turnId: string; status: ApprovalStatus };

export type ChatState = {
  title: string;
  toolsRevision: number;
  personaId: string | null;
  messages: MessageDto[];
  turns: TurnDto[];
  toolResults: Record<string, ToolResultView>;
  /** Latest progress of long tools, by call id. */
  toolProgress: Record<string, ToolProgressView>;
  /** By call id. */
  approvals: Record<string, ApprovalView>;
  /** By turn id: what the user is told when a tool-call limit stopped calls (each message once). */
  limitNotes: Record<string, string[]>;
  lastEventId: string | null;
};

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
    personaId: history.personaId,
    messages: history.messages,
    turns: history.turns,
    toolResults,
    toolProgress: {},
    approvals,
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

function applyData(state: ChatState, event: ChatEvent): ChatState {
  const data = event.data;
  switch (event.type) {
    case "user.message":
      if (state.messages.some((message) => message.id === data.messageId)) return state;
      return {
        ...state,
        title: typeof data.title === "string" ? data.title : state.title,
        messages: [
          // An edit: the message it replaces stays, marked (see server/session/edit-resend.ts).
          ...state.messages.map((message) =>
            data.replaces && message.id === data.replaces
              ? { ...message, replacedBy: String(data.messageId) }
              : message,
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
    case "message.created":
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
    case "tools.changed":
      return { ...state, toolsRevision: Math.max(state.toolsRevision, Number(data.revision)) };
    case "request.started":
      return updateTurn(state, event.turnId, (turn) => ({
        ...turn,
        requests: [
          ...turn.requests,
          {
            index: Number(data.index),
            toolsRevision: Number(data.toolsRevision),
            toolNames: data.toolNames as string[],
            finishReason: null,
          },
        ],
      }));
    case "request.finished":
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
    case "turn.finished":
      return expireApprovals(
        updateTurn(state, data.turnId, (turn) => ({
          ...turn,
          status: String(data.status),
          error: (data.error as TurnDto["error"]) ?? null,
          endedAt: event.createdAt ?? turn.endedAt,
        })),
        String(data.turnId),
      );
    default:
      return state;
  }
}

/** `tool.approval` opens a pending approval; `tool.approval.decided` records the user's decision. */
function applyApproval(state: ChatState, event: ChatEvent): ChatState {
  const callId = String(event.data.callId);
  const approval: ApprovalView = {
    approvalId: String(event.data.approvalId),
    turnId: state.approvals[callId]?.turnId ?? String(event.turnId),
    status: event.type === "tool.approval" ? "pending" : (event.data.status as ApprovalStatus),
  };
  return { ...state, approvals: { ...state.approvals, [callId]: approval } };
}

/** A turn that ended (stopped, restarted, failed) can no longer use what it was waiting for. */
function expireApprovals(state: ChatState, turnId: string): ChatState {
  const entries = Object.entries(state.approvals);
  if (!entries.some(([, approval]) => approval.turnId === turnId && approval.status === "pending")) return state;
  const approvals = Object.fromEntries(
    entries.map(([callId, approval]) => [
      callId,
      approval.turnId === turnId && approval.status === "pending"
        ? { ...approval, status: "expired" as const }
        : approval,
    ]),
  );
  return { ...state, approvals };
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
