// One turn of the conversation: the assistant's messages (text, reasoning, tool calls with their
// approvals, followup questions, an attempt_completion's result as the final text) with its status and the notes of any tool-call limit it hit. Tool rounds Apply now
// carried over from the replaced answer are introduced as such. A superseded turn is
// collapsed under the label it is given ("Restarted with revision N"). A failed turn says what
// happened (the server's message), what the user can do about it, and offers Try again when it is
// the chat's last turn (and the provider settings when the fix lives there). A turn re-renders only
// when its own content changed (turn-props-equal.ts): while an answer streams, the settled ones stay.
import Link from "next/link";
import { memo } from "react";

import type { MessageDto, TurnDto } from "@/server/session/history.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "@/server/core/talk-back-names.ts";
import { ExcludableMessage } from "@/components/overlays/excludable-message.tsx";
import { ToolOverlayControls } from "@/components/overlays/tool-overlay-controls.tsx";
import { Button } from "@/components/ui/button.tsx";

import type { ApprovalView, ToolResultView } from "./chat-state.ts";
import { LiveMarkdown, Markdown } from "./markdown.tsx";
import { FollowupQuestion } from "./followup-question.tsx";
import { AnswerActions } from "./message-actions.tsx";
import { ToolCallCard } from "./tool-call-card.tsx";
import { describeToolStatus, toolStatusLabels } from "./tool-status.ts";
import { TurnDetails, type ToolTiming } from "./turn-details.tsx";
import { describeFailure } from "./turn-failure.ts";
import { areTurnPropsEqual, type TurnMemoProps } from "./turn-props-equal.ts";

type Props = TurnMemoProps;

/** One sentence per ended status; the server's own message is added only when it says more. */
const statusLabels: Record<string, string> = {
  cancelled: "Stopped.",
  interrupted: "Interrupted: the server stopped while writing this answer; the partial answer is kept.",
};

/** The model's attempt_completion: its `result` is the answer's final text. */
function CompletionResult({ args }: { args: unknown }) {
  const result = (args as { result?: unknown } | null)?.result;
  return (
    <div className="w-full" data-testid="completion-result">
      <Markdown text={typeof result === "string" ? result : ""} />
    </div>
  );
}

type PartContext = Pick<Props, "toolResults" | "toolProgress" | "approvals" | "questions"> & { turnStatus: string };

/** One part of an assistant message; a tool card carries its context controls (not when superseded). */
function renderPart(part: MessageDto["parts"][number], key: string, ctx: PartContext, roundCallIds: string[]) {
  const { toolResults, toolProgress, approvals, questions, turnStatus } = ctx;
  if (part.type === "text")
    return turnStatus === "streaming" ? (
      <LiveMarkdown key={key} text={part.text} />
    ) : (
      <Markdown key={key} text={part.text} />
    );
  if (part.type === "reasoning")
    return (
      <details key={key} className="text-sm text-zinc-600 dark:text-zinc-400">
        <summary className="cursor-pointer">Reasoning</summary>
        <p className="whitespace-pre-wrap">{part.text}</p>
      </details>
    );
  if (part.type !== "tool-call") return null;
  // A talk-back call the turn refused (switched off, bad arguments) shows as the tool card it is.
  const isRefused = toolResults[part.id]?.isError === true;
  if (part.name === ATTEMPT_COMPLETION && !isRefused) return <CompletionResult key={key} args={part.args} />;
  if (part.name === ASK_FOLLOWUP_QUESTION && (questions[part.id] || !isRefused))
    return <FollowupQuestion key={key} question={questions[part.id]} args={part.args} turnStatus={turnStatus} />;
  const card = (
    <ToolCallCard
      key={key}
      name={part.name}
      args={part.args}
      result={toolResults[part.id]}
      progress={toolProgress?.[part.id]}
      approval={approvals[part.id]}
      turnStatus={turnStatus}
    />
  );
  if (turnStatus === "superseded") return card;
  return (
    <ToolOverlayControls
      key={key}
      callId={part.id}
      roundCallIds={roundCallIds}
      name={part.name}
      hasResult={!!toolResults[part.id]}
    >
      {card}
    </ToolOverlayControls>
  );
}

function Parts({
  messages,
  toolResults,
  toolProgress,
  approvals,
  questions,
  turnStatus,
}: Pick<Props, "messages" | "toolResults" | "toolProgress" | "approvals" | "questions"> & { turnStatus: string }) {
  const firstKeptId = messages.find((message) => message.role === "assistant" && message.keptFrom)?.id;
  // A superseded answer is never sent again: it has no context controls.
  const canOverlay = turnStatus !== "superseded";
  return messages
    .filter((message) => message.role === "assistant")
    .flatMap((message) => {
      const callIds = message.parts.flatMap((part) => (part.type === "tool-call" ? [part.id] : []));
      const parts = message.parts.map((part, index) =>
        renderPart(
          part,
          `${message.id}-${index}`,
          { toolResults, toolProgress, approvals, questions, turnStatus },
          callIds,
        ),
      );
      const kept = message.id === firstKeptId ? [<KeptNote key={`${message.id}-kept`} />] : [];
      if (!canOverlay || message.parts.length === 0) return [...kept, ...parts];
      return [
        ...kept,
        <ExcludableMessage key={message.id} messageId={message.id}>
          {parts}
        </ExcludableMessage>,
      ];
    });
}

/** Above the tool rounds Apply now carried over from the replaced answer (server/session/kept-rounds.ts). */
function KeptNote() {
  return (
    <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="kept-rounds">
      Carried over from the replaced answer: these tool calls had already run and were not run again.
    </p>
  );
}

function listToolTimings(
  turn: TurnDto,
  messages: MessageDto[],
  toolResults: Record<string, ToolResultView>,
  approvals: Record<string, ApprovalView>,
): ToolTiming[] {
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (part.type !== "tool-call") return [];
      const result = toolResults[part.id];
      const status = describeToolStatus({ result, approval: approvals[part.id]?.status, turnStatus: turn.status });
      return [{ id: part.id, name: part.name, durationMs: result?.durationMs, status: toolStatusLabels[status] }];
    }),
  );
}

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
        turnStatus={turn.status}
      />
      <LimitNotes notes={limitNotes} turn={turn} />
      {isLive && (
        <p className="animate-pulse text-sm text-zinc-500" aria-live="polite">
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
        <TurnDetails turn={turn} toolTimings={listToolTimings(turn, messages, toolResults, approvals)} />
        {!isLive && (
          <AnswerActions text={answerTextOf(messages)} onRegenerate={turn.status === "failed" ? undefined : onRetry} />
        )}
      </div>
    </article>
  );
}

export const TurnView = memo(TurnViewContent, areTurnPropsEqual);
