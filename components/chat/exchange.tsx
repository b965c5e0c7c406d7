"use client";
// One exchange of the conversation: a user message followed by the turns that answered it. A message
// replaced by an edit is shown collapsed with its answers ("Edited — the earlier version of this
// message"). Memoised: while an answer streams, the chat's state changes with every chunk, yet a
// settled exchange gets the same message, the same turns, the same message lists per turn and the
// same records (tool results, approvals, …), so it is skipped without rendering anything, and only
// the live exchange re-renders (its settled turns skip again, see turn-props-equal.ts). Every
// exchange but the last is skipped by the browser's rendering while it is off screen
// (`content-visibility: auto`, its size remembered once drawn): a long chat's streaming answer
// then costs the browser's paint the same as a short chat's.
import { memo } from "react";

import type { MessageDto } from "@/server/session/history.ts";
import { ExcludableMessage } from "@/components/overlays/excludable-message.tsx";

import { areExchangePropsEqual, type ExchangeProps } from "./exchange-props-equal.ts";
import { supersededLabel } from "./superseded-label.ts";
import { TurnView } from "./turn-view.tsx";
import { UserMessage } from "./user-message.tsx";

function textOf(message: MessageDto): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const NO_NOTES: string[] = [];

/** Off screen, a settled exchange is not laid out or painted; focus rings may reach past its edges. */
const SKIPPED_OFF_SCREEN = "[content-visibility:auto] [contain-intrinsic-size:auto_240px] [overflow-clip-margin:8px]";

function ExchangeContent(props: ExchangeProps) {
  const { message, turns, turnMessages, allTurns, records, canEdit, retryTurnId, isLast, onEdit, onRetry } = props;
  const turnViews = (label?: string) =>
    turns.map((turn, index) => (
      <TurnView
        key={turn.id}
        turn={turn}
        messages={turnMessages[index]!}
        toolResults={records.toolResults}
        toolProgress={records.toolProgress}
        approvals={records.approvals}
        subAgents={records.subAgents}
        questions={records.questions}
        limitNotes={records.limitNotes[turn.id] ?? NO_NOTES}
        supersededLabel={label ?? supersededLabel(turn, allTurns)}
        onRetry={turn.id === retryTurnId ? () => onRetry(turn.id) : undefined}
      />
    ));
  if (message.replacedBy)
    return (
      <details
        className={`${SKIPPED_OFF_SCREEN} rounded-md border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400`}
        data-testid="replaced-message"
      >
        <summary className="cursor-pointer">Edited — the earlier version of this message</summary>
        <div className="mt-2 flex flex-col gap-2 opacity-80">
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{textOf(message)}</p>
          {turnViews("Its answer")}
        </div>
      </details>
    );
  return (
    <div className={`flex flex-col gap-3 ${isLast ? "" : SKIPPED_OFF_SCREEN}`}>
      <ExcludableMessage messageId={message.id} canExclude={!isLast} align="end">
        <UserMessage text={textOf(message)} onEdit={canEdit ? (text) => onEdit(message.id, text) : undefined} />
      </ExcludableMessage>
      {turnViews()}
    </div>
  );
}

export const Exchange = memo(ExchangeContent, areExchangePropsEqual);
