// When a turn of the conversation may skip re-rendering: React.memo's comparison for TurnView.
// While an answer streams, every event makes a new chat state, but the reducer (chat-state.ts) keeps
// the objects it did not change, so a settled turn sees the same turn, the same message objects and
// the same results, approvals and progress for its own tool calls. Only then is it skipped; the
// records of other turns' calls are not looked at. `onRetry` counts by presence: the conversation
// passes a callback that always calls the latest handler.
import type { MessageDto, TurnDto } from "@/server/session/history.ts";

import type { SubAgentRunDto } from "@/server/session/sub-agent-store.ts";

import type { ApprovalView, QuestionView, ToolProgressView, ToolResultView } from "./chat-state.ts";

export type TurnMemoProps = {
  turn: TurnDto;
  messages: MessageDto[];
  toolResults: Record<string, ToolResultView>;
  toolProgress?: Record<string, ToolProgressView>;
  approvals: Record<string, ApprovalView>;
  /** Followup questions, by call id. */
  questions: Record<string, QuestionView>;
  /** Sub-agent runs by parent call id (the turn's own calls' runs are compared, and their nested calls). */
  subAgents?: Record<string, SubAgentRunDto>;
  limitNotes: string[];
  /** The summary of a superseded turn. */
  supersededLabel?: string;
  /** Given for the chat's last turn: answers its message again. */
  onRetry?: () => void;
};

function isSameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function callIdsOf(messages: Pick<MessageDto, "parts">[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === "tool-call" ? [part.id] : [])));
}

export function areTurnPropsEqual(prev: TurnMemoProps, next: TurnMemoProps): boolean {
  if (prev.turn !== next.turn || prev.supersededLabel !== next.supersededLabel) return false;
  if (!prev.onRetry !== !next.onRetry) return false;
  if (!isSameList(prev.messages, next.messages) || !isSameList(prev.limitNotes, next.limitNotes)) return false;
  const ids = callIdsOf(next.messages);
  if (!ids.every((id) => prev.subAgents?.[id] === next.subAgents?.[id])) return false;
  // A sub-agent's own calls: their approvals and progress live in the chat's records too.
  const nested = ids.flatMap((id) => callIdsOf(next.subAgents?.[id]?.messages ?? []));
  return [...ids, ...nested].every(
    (id) =>
      prev.toolResults[id] === next.toolResults[id] &&
      prev.approvals[id] === next.approvals[id] &&
      prev.questions[id] === next.questions[id] &&
      prev.toolProgress?.[id] === next.toolProgress?.[id],
  );
}
