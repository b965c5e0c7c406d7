"use client";
// A tool call inside an answer: tool name, status (in words: running with its progress, waiting for
// approval, done, error, denied, cancelled…; see tool-status.ts), duration, arguments, and its
// result once it arrives. A failed call's message shows without opening the card. A call of an
// `ask` tool waits for the user: while its turn is live the card offers Approve / Deny (the decision
// is stored on the server, so any app instance running the turn picks it up), then shows the
// decision. A denied call's result is the denial the model was given.
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";

import type { ApprovalView, ToolProgressView, ToolResultView } from "./chat-state.ts";
import {
  describeToolStatus,
  failedToolStatuses,
  toolErrorOf,
  toolStatusLabels,
  type ToolStatus,
} from "./tool-status.ts";

type Props = {
  name: string;
  args: unknown;
  result: ToolResultView | undefined;
  progress?: ToolProgressView;
  approval: ApprovalView | undefined;
  /** The status of the turn this call belongs to (`streaming` while it runs). */
  turnStatus: string;
  /** Shown open under the summary, e.g. a sub-agent's live progress (sub-agent-card.tsx). */
  children?: ReactNode;
};

const MAX_PREVIEW = 2_000;
const MAX_ARGS_LINE = 160;
const MAX_ERROR_LINE = 300;

function format(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "");
}

/** Arguments or a result: long text is cut at MAX_PREVIEW characters with a "Show all" toggle. */
function ToolText({ value, className = "", testId }: { value: unknown; className?: string; testId?: string }) {
  const [isExpanded, setIsExpanded] = useState(false);
  const text = format(value);
  const isLong = text.length > MAX_PREVIEW;
  return (
    <div className="flex flex-col items-start gap-1" data-testid={testId}>
      <pre
        className={`max-h-[32rem] w-full overflow-auto whitespace-pre-wrap break-words font-mono text-xs ${className}`}
      >
        {isLong && !isExpanded ? `${text.slice(0, MAX_PREVIEW)}…` : text}
      </pre>
      {isLong && (
        <button
          type="button"
          aria-expanded={isExpanded}
          onClick={() => setIsExpanded(!isExpanded)}
          className="text-xs text-zinc-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300"
        >
          {isExpanded ? "Show less" : `Show all (${text.length - MAX_PREVIEW} more characters)`}
        </button>
      )}
    </div>
  );
}

function formatLine(value: unknown, max = MAX_ARGS_LINE): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeProgress(progress: ToolProgressView): string {
  const amount = progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return progress.message ? `${amount} · ${progress.message}` : amount;
}

const statusColours: Partial<Record<ToolStatus, string>> = {
  done: "text-green-800 dark:text-green-300",
  running: "text-blue-800 dark:text-blue-300",
  waiting: "text-amber-800 dark:text-amber-300",
  cancelled: "text-zinc-600 dark:text-zinc-400",
};

/** The one-line status of the summary: "approved · running · 2/4", "error · 12 ms". */
function StatusLine({
  status,
  isApproved,
  progress,
  durationMs,
}: {
  status: ToolStatus;
  isApproved: boolean;
  progress?: ToolProgressView;
  durationMs?: number;
}) {
  const isFailed = failedToolStatuses.has(status);
  return (
    <span
      className={cn(
        "text-right text-xs",
        isFailed ? "text-red-700 dark:text-red-300" : (statusColours[status] ?? "text-zinc-600 dark:text-zinc-400"),
      )}
      data-testid="tool-status"
      data-status={status}
    >
      <span className="sr-only">Status: </span>
      {isApproved ? "approved · " : ""}
      <span className={isFailed || status === "cancelled" ? "font-medium" : undefined}>{toolStatusLabels[status]}</span>
      {status === "running" && progress ? ` · ${describeProgress(progress)}` : ""}
      {durationMs !== undefined && !Number.isNaN(durationMs) ? ` · ${durationMs} ms` : ""}
    </span>
  );
}

/** The question a call waiting for the user's approval asks, with Approve and Deny. */
function ApprovalPrompt(props: {
  name: string;
  args: unknown;
  isPending: boolean;
  onDecide: (decision: "approve" | "deny") => void;
}) {
  const { name, args, isPending, onDecide } = props;
  return (
    <div className="flex flex-col gap-2 border-t border-amber-200 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
      <p>
        Run this tool call? <code className="break-all font-mono text-xs">{formatLine(args)}</code>
      </p>
      <div className="flex gap-2">
        <Button aria-label={`Approve ${name}`} disabled={isPending} onClick={() => onDecide("approve")}>
          Approve
        </Button>
        <Button variant="secondary" aria-label={`Deny ${name}`} disabled={isPending} onClick={() => onDecide("deny")}>
          Deny
        </Button>
      </div>
    </div>
  );
}

export function ToolCallCard({ name, args, result, progress, approval, turnStatus, children }: Props) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.policy.decideApproval.mutationOptions());
  // The decision shows as soon as the server stored it; the event confirming it follows.
  const approvalStatus = approval?.status === "pending" && decide.data ? decide.data.status : approval?.status;
  const status = describeToolStatus({ result, approval: approvalStatus, turnStatus });
  const isWaiting = status === "waiting";
  const errorLine = result?.isError ? (toolErrorOf(result.output)?.message ?? formatLine(result.output)) : null;
  const onDecide = (decision: "approve" | "deny") =>
    approval && decide.mutate({ approvalId: approval.approvalId, decision });

  return (
    <div
      className="my-2 rounded-md border border-zinc-200 bg-zinc-50 text-sm dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="tool-call"
      data-approval={approvalStatus}
      data-status={status}
    >
      <details>
        <summary className="flex cursor-pointer items-center justify-between gap-2 px-3 py-2">
          <span className="min-w-0 break-all font-mono">{name}</span>
          <StatusLine
            status={status}
            isApproved={approvalStatus === "approved"}
            progress={progress}
            durationMs={result?.durationMs}
          />
        </summary>
        <div className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Arguments</p>
          <ToolText value={args} testId="tool-args" />
          {result && (
            <>
              <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Result</p>
              <ToolText
                value={result.output}
                className={result.isError ? "text-red-700 dark:text-red-300" : ""}
                testId="tool-result"
              />
            </>
          )}
        </div>
      </details>
      {children}
      {errorLine && (
        <p
          className="border-t border-zinc-200 px-3 py-2 text-xs text-red-700 [overflow-wrap:anywhere] dark:border-zinc-800 dark:text-red-300"
          data-testid="tool-error"
        >
          {formatLine(errorLine, MAX_ERROR_LINE)}
        </p>
      )}
      {isWaiting && <ApprovalPrompt name={name} args={args} isPending={decide.isPending} onDecide={onDecide} />}
      {decide.error && (
        <p
          role="alert"
          className="border-t border-zinc-200 px-3 py-2 text-red-700 dark:border-zinc-800 dark:text-red-300"
        >
          {decide.error.message}
        </p>
      )}
    </div>
  );
}
