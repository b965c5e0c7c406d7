"use client";
// What a persona consulted as a sub-agent is doing, inside its tool call's card: the persona, its
// model, its status, steps and tokens, then its steps as they arrive (its text, and its own tool
// calls as collapsible cards with their approvals: an `ask` tool inside a sub-agent asks the user
// here). Fed by `subagent.updated` events, each carrying the whole run, and by the history.
import type { SubAgentRunDto } from "@/server/session/sub-agent-store.ts";

import type { ApprovalView, ToolProgressView, ToolResultView } from "./chat-state.ts";
import { Markdown } from "./markdown.tsx";
import { ToolCallCard } from "./tool-call-card.tsx";

type Props = {
  run: SubAgentRunDto;
  approvals: Record<string, ApprovalView>;
  toolProgress?: Record<string, ToolProgressView>;
  /** The parent turn's status: a nested call waits for approval only while it streams. */
  turnStatus: string;
};

const statusWords: Record<SubAgentRunDto["status"], string> = {
  running: "working",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
};

function resultsOf(run: SubAgentRunDto): Record<string, ToolResultView> {
  const results: Record<string, ToolResultView> = {};
  for (const message of run.messages) {
    for (const part of message.parts) {
      if (part.type === "tool-result")
        results[part.callId] = { output: part.output, isError: part.isError, durationMs: part.durationMs };
    }
  }
  return results;
}

/** A nested call is live while the run is: a cancelled run's open calls read as cancelled. */
function nestedTurnStatus(run: SubAgentRunDto, turnStatus: string): string {
  return run.status === "running" ? turnStatus : run.status === "cancelled" ? "cancelled" : "completed";
}

export function SubAgentCard({ run, approvals, toolProgress, turnStatus }: Props) {
  const results = resultsOf(run);
  const steps = run.messages.filter((message) => message.role === "assistant");
  return (
    <div
      className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800"
      data-testid="sub-agent"
      data-status={run.status}
      aria-label={`Sub-agent ${run.personaName}`}
    >
      <p className="flex flex-wrap gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="font-medium text-zinc-800 dark:text-zinc-200">Sub-agent {run.personaName}</span>
        <span>
          {run.provider} · {run.model}
        </span>
        <span data-testid="sub-agent-status">{statusWords[run.status]}</span>
        <span data-testid="sub-agent-steps">
          {run.stepCount} {run.stepCount === 1 ? "step" : "steps"}
        </span>
        <span data-testid="sub-agent-tokens">
          {run.inputTokens} in / {run.outputTokens} out tokens
        </span>
      </p>
      {run.error && <p className="text-xs text-red-700 dark:text-red-300">{run.error.message}</p>}
      <ol className="space-y-1 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700" aria-label="Sub-agent steps">
        {steps.map((message, step) => (
          <li key={step} data-testid="sub-agent-step" className="text-sm">
            {message.parts.map((part, index) => {
              if (part.type === "text") return <Markdown key={index} text={part.text} />;
              if (part.type !== "tool-call") return null;
              return (
                <ToolCallCard
                  key={index}
                  name={part.name}
                  args={part.args}
                  result={results[part.id]}
                  progress={toolProgress?.[part.id]}
                  approval={approvals[part.id]}
                  turnStatus={nestedTurnStatus(run, turnStatus)}
                />
              );
            })}
          </li>
        ))}
      </ol>
    </div>
  );
}
