"use client";
// The conversation: each user message followed by the turns that answered it. A message replaced
// by an edit is shown collapsed with its answers, above the edited one, the way a restarted turn
// sits collapsed above its replacement ("Restarted with revision N"). Only the last message may be
// edited, never mid-answer; only the last turn offers Try again when it failed. A page opened (or
// reloaded) while an answer streams lands scrolled to that live answer, at the end.
import { useEffect, useRef } from "react";

import { findStreamingTurn, type ChatState } from "./chat-state.ts";
import { supersededLabel } from "./superseded-label.ts";
import { TurnView } from "./turn-view.tsx";
import { UserMessage } from "./user-message.tsx";

type Props = {
  state: ChatState;
  /** Edits the last user message; absent while editing is not possible (an answer is streaming). */
  onEdit?: (messageId: string, text: string) => Promise<boolean>;
  /** Answers the last turn's message again; absent while that is not possible. */
  onRetry?: (turnId: string) => void;
};

function textOf(message: ChatState["messages"][number]): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** On the first render only: scrolls `end` into view when an answer is streaming then. */
function useLandOnLiveAnswer(isStreaming: boolean) {
  const end = useRef<HTMLDivElement>(null);
  const hasLanded = useRef(false);
  useEffect(() => {
    if (hasLanded.current) return;
    hasLanded.current = true;
    if (isStreaming) end.current?.scrollIntoView({ block: "end" });
  }, [isStreaming]);
  return end;
}

export function Conversation({ state, onEdit, onRetry }: Props) {
  const end = useLandOnLiveAnswer(!!findStreamingTurn(state));
  const userMessages = state.messages.filter((message) => message.role === "user");
  const lastId = userMessages.filter((message) => !message.replacedBy).at(-1)?.id;
  const lastTurnId = state.turns.at(-1)?.id;
  const turnsOf = (messageId: string, label?: string) =>
    state.turns
      .filter((turn) => turn.userMessageId === messageId)
      .map((turn) => (
        <TurnView
          key={turn.id}
          turn={turn}
          messages={state.messages.filter((m) => m.turnId === turn.id)}
          toolResults={state.toolResults}
          toolProgress={state.toolProgress}
          approvals={state.approvals}
          limitNotes={state.limitNotes[turn.id] ?? []}
          supersededLabel={label ?? supersededLabel(turn, state.turns)}
          onRetry={onRetry && turn.id === lastTurnId ? () => onRetry(turn.id) : undefined}
        />
      ));

  return (
    <section aria-label="Conversation" className="flex flex-1 flex-col gap-4">
      {userMessages.map((message) =>
        message.replacedBy ? (
          <details
            key={message.id}
            className="rounded-md border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
            data-testid="replaced-message"
          >
            <summary className="cursor-pointer">Edited — the earlier version of this message</summary>
            <div className="mt-2 flex flex-col gap-2 opacity-80">
              <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{textOf(message)}</p>
              {turnsOf(message.id, "Its answer")}
            </div>
          </details>
        ) : (
          <div key={message.id} className="flex flex-col gap-3">
            <UserMessage
              text={textOf(message)}
              onEdit={onEdit && message.id === lastId ? (text) => onEdit(message.id, text) : undefined}
            />
            {turnsOf(message.id)}
          </div>
        ),
      )}
      <div ref={end} aria-hidden="true" />
    </section>
  );
}
