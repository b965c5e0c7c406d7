// The parts of one answer's assistant messages, in order: text (Markdown, parsed at most once a frame
// while it streams), reasoning, tool-call cards with their context-overlay controls, followup questions,
// an attempt_completion's result as the answer's final text, and a sub-agent's card; an assistant
// message that can be left out of the context is wrapped in its Exclude control. A superseded answer
// is never sent again, so it has no context controls. Tool rounds Apply now carried over from the
// replaced answer are introduced as such.
import type { MessageDto } from "@/server/session/history.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "@/server/core/talk-back-names.ts";
import { ExcludableMessage } from "@/components/overlays/excludable-message.tsx";
import { ToolOverlayControls } from "@/components/overlays/tool-overlay-controls.tsx";

import { FollowupQuestion } from "./followup-question.tsx";
import { LiveMarkdown, Markdown } from "./markdown.tsx";
import { SubAgentCard } from "./sub-agent-card.tsx";
import { ToolCallCard } from "./tool-call-card.tsx";
import type { TurnMemoProps } from "./turn-props-equal.ts";

type Props = TurnMemoProps;

/** The model's attempt_completion: its `result` is the answer's final text. */
function CompletionResult({ args }: { args: unknown }) {
  const result = (args as { result?: unknown } | null)?.result;
  return (
    <div className="w-full" data-testid="completion-result">
      <Markdown text={typeof result === "string" ? result : ""} />
    </div>
  );
}

type PartContext = Pick<Props, "toolResults" | "toolProgress" | "approvals" | "questions" | "subAgents"> & {
  turnStatus: string;
};

/** One part of an assistant message; a tool card carries its context controls (not when superseded). */
function renderPart(part: MessageDto["parts"][number], key: string, ctx: PartContext, roundCallIds: string[]) {
  const { toolResults, toolProgress, approvals, questions, subAgents, turnStatus } = ctx;
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
    >
      {subAgents?.[part.id] && (
        <SubAgentCard
          run={subAgents[part.id]!}
          approvals={approvals}
          toolProgress={toolProgress}
          turnStatus={turnStatus}
        />
      )}
    </ToolCallCard>
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

export function Parts({
  messages,
  toolResults,
  toolProgress,
  approvals,
  questions,
  subAgents,
  turnStatus,
}: Pick<Props, "messages" | "toolResults" | "toolProgress" | "approvals" | "questions" | "subAgents"> & {
  turnStatus: string;
}) {
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
          { toolResults, toolProgress, approvals, questions, subAgents, turnStatus },
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
