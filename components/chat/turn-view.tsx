// One turn of the conversation: the assistant's messages (text, reasoning, tool calls with their
// approvals) with its status and the notes of any tool-call limit it hit. A superseded turn is
// collapsed and labelled; failures show the message the server chose.
import type { MessageDto, TurnDto } from "@/server/session/history.ts";

import type { ApprovalView, ToolProgressView, ToolResultView } from "./chat-state.ts";
import { Markdown } from "./markdown.tsx";
import { ToolCallCard } from "./tool-call-card.tsx";
import { TurnDetails, type ToolTiming } from "./turn-details.tsx";

type Props = {
  turn: TurnDto;
  messages: MessageDto[];
  toolResults: Record<string, ToolResultView>;
  toolProgress?: Record<string, ToolProgressView>;
  approvals: Record<string, ApprovalView>;
  limitNotes: string[];
  /** The summary of a superseded turn (default: it was restarted). */
  supersededLabel?: string;
};

const statusLabels: Record<string, string> = {
  cancelled: "Stopped.",
  interrupted: "Interrupted: the server stopped while writing this answer.",
  failed: "This answer failed.",
};

function Parts({
  messages,
  toolResults,
  toolProgress,
  approvals,
  isLive,
}: Pick<Props, "messages" | "toolResults" | "toolProgress" | "approvals"> & { isLive: boolean }) {
  return messages
    .filter((message) => message.role === "assistant")
    .flatMap((message) =>
      message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === "text") return <Markdown key={key} text={part.text} />;
        if (part.type === "reasoning")
          return (
            <details key={key} className="text-sm text-zinc-600 dark:text-zinc-400">
              <summary className="cursor-pointer">Reasoning</summary>
              <p className="whitespace-pre-wrap">{part.text}</p>
            </details>
          );
        if (part.type === "tool-call")
          return (
            <ToolCallCard
              key={key}
              name={part.name}
              args={part.args}
              result={toolResults[part.id]}
              progress={toolProgress?.[part.id]}
              approval={approvals[part.id]}
              isTurnLive={isLive}
            />
          );
        return null;
      }),
    );
}

function listToolTimings(messages: MessageDto[], toolResults: Record<string, ToolResultView>): ToolTiming[] {
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (part.type !== "tool-call") return [];
      const result = toolResults[part.id];
      const status = result ? (result.isError ? "error" : "done") : "no result";
      return [{ id: part.id, name: part.name, durationMs: result?.durationMs, status }];
    }),
  );
}

export function TurnView({
  turn,
  messages,
  toolResults,
  toolProgress,
  approvals,
  limitNotes,
  supersededLabel = "Restarted — this answer was replaced",
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
          <Parts messages={messages} toolResults={toolResults} approvals={approvals} isLive={false} />
        </div>
      </details>
    );
  }
  return (
    <article className="space-y-2" aria-label="Assistant answer" data-testid="assistant-turn" data-status={turn.status}>
      <Parts
        messages={messages}
        toolResults={toolResults}
        toolProgress={toolProgress}
        approvals={approvals}
        isLive={isLive}
      />
      {limitNotes
        .filter((note) => note !== turn.error?.message)
        .map((note) => (
          <p
            key={note}
            className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200"
            data-testid="limit-note"
          >
            {note}
          </p>
        ))}
      {isLive && (
        <p className="animate-pulse text-sm text-zinc-500" aria-live="polite">
          Writing…
        </p>
      )}
      {statusLabels[turn.status] && (
        <p
          role={turn.status === "failed" ? "alert" : undefined}
          className={`text-sm ${turn.status === "failed" ? "text-red-700 dark:text-red-300" : "text-zinc-500"}`}
        >
          {statusLabels[turn.status]} {turn.error?.message ?? ""}
        </p>
      )}
      {turn.status === "completed" && turn.error && (
        <p className="text-sm text-amber-700 dark:text-amber-300">{turn.error.message}</p>
      )}
      <TurnDetails turn={turn} toolTimings={listToolTimings(messages, toolResults)} />
    </article>
  );
}
