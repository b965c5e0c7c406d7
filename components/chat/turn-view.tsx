// One turn of the conversation: the assistant's messages (turn-parts.tsx) with its status, the notes
// of any tool-call limit it hit, its details and its actions (copy, regenerate). A superseded turn is
// collapsed under the label it is given ("Restarted with revision N"). A failed turn says what
// happened (the server's message), what the user can do about it, and offers Try again when it is
// the chat's last turn (and the provider settings when the fix lives there). A turn re-renders only
// when its own content changed (turn-props-equal.ts): while an answer streams, the settled ones stay.
import Link from "next/link";
import { memo } from "react";

import type { MessageDto, TurnDto } from "@/server/session/history.ts";
import { Button } from "@/components/ui/button.tsx";

import { AnswerActions } from "./message-actions.tsx";
import { listToolTimings } from "./tool-timings.ts";
import { TurnDetails } from "./turn-details.tsx";
import { describeFailure } from "./turn-failure.ts";
import { Parts } from "./turn-parts.tsx";
import { areTurnPropsEqual, type TurnMemoProps } from "./turn-props-equal.ts";

type Props = TurnMemoProps;

/** One sentence per ended status; the server's own message is added only when it says more. */
const statusLabels: Record<string, string> = {
  cancelled: "Stopped.",
  interrupted: "Interrupted: the server stopped while writing this answer; the partial answer is kept.",
};

/** The answer's written text (tool calls and reasoning left out), for Copy. */
function answerTextOf(messages: MessageDto[]): string {
  return messages
    .filter((message) => message.role === "assistant")
    .flatMap((message) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])))
    .join("\n\n")
    .trim();
}

function FailureNotice({ turn, onRetry }: { turn: TurnDto; onRetry?: () => void }) {
  const help = describeFailure(turn.error);
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
      data-testid="turn-error"
    >
      <p className="font-medium">This answer failed.</p>
      <p>{turn.error?.message ?? "The server did not say why."}</p>
      {help.hint && <p className="text-red-800 dark:text-red-200">{help.hint}</p>}
      {(onRetry || help.isSettingsFix) && (
        <div className="flex flex-wrap items-center gap-3">
          {onRetry && (
            <Button variant="secondary" onClick={onRetry}>
              Try again
            </Button>
          )}
          {help.isSettingsFix && (
            <Link href="/settings/providers" className="font-medium underline underline-offset-2">
              Open provider settings
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

/** The turn is paused on a followup question the user has not answered yet. */
function isAwaitingAnswer(turnId: string, questions: Props["questions"]): boolean {
  return Object.values(questions).some((question) => question.turnId === turnId && question.status === "pending");
}

/** The notes of the tool-call limits the turn hit (the one its error already says is left out). */
function LimitNotes({ notes, turn }: { notes: string[]; turn: TurnDto }) {
  return notes
    .filter((note) => note !== turn.error?.message)
    .map((note) => (
      <p
        key={note}
        className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200"
        data-testid="limit-note"
      >
        {note}
      </p>
    ));
}

function TurnViewContent({
  turn,
  messages,
  toolResults,
  toolProgress,
  approvals,
  questions,
  subAgents,
  limitNotes,
  supersededLabel = "Restarted — this answer was replaced",
  onRetry,
}: Props) {
  const isLive = turn.status === "streaming";
  if (turn.status === "superseded") {
    return (
      <details
        className="rounded-md border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
        data-testid="superseded-turn"
      >
        <summary className="cursor-pointer">{supersededLabel}</summary>
        <div className="mt-2 opacity-70">
          <Parts
            messages={messages}
            toolResults={toolResults}
            approvals={approvals}
            questions={questions}
            subAgents={subAgents}
            turnStatus={turn.status}
          />
        </div>
      </details>
    );
  }
  return (
    <article
      className="group space-y-2"
      aria-label="Assistant answer"
      data-testid="assistant-turn"
      data-status={turn.status}
    >
      <Parts
        messages={messages}
        toolResults={toolResults}
        toolProgress={toolProgress}
        approvals={approvals}
        questions={questions}
        subAgents={subAgents}
        turnStatus={turn.status}
      />
      <LimitNotes notes={limitNotes} turn={turn} />
      {isLive && (
        <p className="animate-pulse text-sm will-change-[opacity] text-zinc-500" aria-live="polite">
          {isAwaitingAnswer(turn.id, questions) ? "Waiting for your answer…" : "Writing…"}
        </p>
      )}
      {turn.status === "failed" && <FailureNotice turn={turn} onRetry={onRetry} />}
      {statusLabels[turn.status] && (
        <p className="text-sm text-zinc-500" data-testid="turn-status-note">
          {[statusLabels[turn.status], turn.error?.code === turn.status ? null : turn.error?.message]
            .filter(Boolean)
            .join(" ")}
        </p>
      )}
      {turn.status === "completed" && turn.error && (
        <p className="text-sm text-amber-700 dark:text-amber-300">{turn.error.message}</p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-2">
        <TurnDetails
          turn={turn}
          toolTimings={listToolTimings(turn, messages, toolResults, approvals)}
          subAgentRuns={Object.values(subAgents ?? {}).filter((run) => run.turnId === turn.id)}
        />
        {!isLive && (
          <AnswerActions text={answerTextOf(messages)} onRegenerate={turn.status === "failed" ? undefined : onRetry} />
        )}
      </div>
    </article>
  );
}

export const TurnView = memo(TurnViewContent, areTurnPropsEqual);
