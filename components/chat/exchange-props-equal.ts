// When an exchange of the conversation may skip re-rendering: React.memo's comparison for Exchange
// (exchange.tsx). While an answer streams, each chunk makes a new chat state and new message lists
// per turn, but the reducer (chat-state.ts) keeps every object it did not change: a settled exchange
// gets the same message, turns, records and callbacks, and message lists whose items are the same.
import type { MessageDto, TurnDto } from "@/server/session/history.ts";

import type { ChatState } from "./chat-state.ts";

/** The chat's records a turn looks its tool calls up in; the same object while none of them changed. */
export type ExchangeRecords = Pick<
  ChatState,
  "toolResults" | "toolProgress" | "approvals" | "subAgents" | "questions" | "limitNotes"
>;

export type ExchangeProps = {
  message: MessageDto;
  /** The turns answering this message, in order, and each one's messages. */
  turns: TurnDto[];
  turnMessages: MessageDto[][];
  /** Every turn of the chat (a restarted turn's label names its replacement's revision). */
  allTurns: TurnDto[];
  records: ExchangeRecords;
  /** This is the last message and may be edited now. */
  canEdit: boolean;
  /** The turn that may be tried again now, when it is one of this exchange's. */
  retryTurnId: string | null;
  /** This is the message being answered: it can not be left out of the context. */
  isLast: boolean;
  /** Stable callbacks (they always call the latest handler). */
  onEdit: (messageId: string, text: string) => Promise<boolean>;
  onRetry: (turnId: string) => void;
};

function isSameList<T>(a: readonly T[], b: readonly T[], isSame = (x: T, y: T) => x === y): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => isSame(item, b[index]!)));
}

/** Props equal field by field; the message lists per turn item by item. */
export function areExchangePropsEqual(prev: ExchangeProps, next: ExchangeProps): boolean {
  const keys = Object.keys(next) as (keyof ExchangeProps)[];
  if (!keys.every((key) => key === "turnMessages" || prev[key] === next[key])) return false;
  return isSameList(prev.turnMessages, next.turnMessages, (a, b) => isSameList(a, b));
}
