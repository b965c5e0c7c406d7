"use client";
// A tool call inside an answer: tool name, arguments, and its result or error once it arrives. A call
// of an `ask` tool waits for the user: while its turn is live the card offers Approve / Deny (the
// decision is stored on the server, so any app instance running the turn picks it up), then shows
// the decision. A denied call's result is the denial the model was given, shown as an error.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import type { ApprovalStatus, ApprovalView, ToolProgressView, ToolResultView } from "./chat-state.ts";

type Props = {
  name: string;
  args: unknown;
  result: ToolResultView | undefined;
  progress?: ToolProgressView;
  approval: ApprovalView | undefined;
  isTurnLive: boolean;
};

const MAX_PREVIEW = 2_000;
const MAX_ARGS_LINE = 160;

function format(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "");
}

/** Arguments or a result: long text is cut at MAX_PREVIEW characters with a "Show all" toggle. */
function ToolText({ value, className = "", testId }: { value: unknown; className?: string; testId?: string }) {
  const [isExpanded, setIsExpanded] = useState(false);
  const text = format(value);
  const isLong = text.length > MAX_PREVIEW;
  return (
    <div className="flex flex-col items-start gap-1">
      <pre
        className={`max-h-[32rem] w-full overflow-auto whitespace-pre-wrap break-words font-mono text-xs ${className}`}
        data-testid={testId}
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

function formatLine(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > MAX_ARGS_LINE ? `${text.slice(0, MAX_ARGS_LINE)}…` : text;
}

type Status = { label: string; isError: boolean };

function describeStatus(
  result: ToolResultView | undefined,
  approval: ApprovalStatus | undefined,
  isTurnLive: boolean,
): Status {
  if (approval === "denied") return { label: "denied", isError: true };
  if (result) return { label: result.isError ? "error" : "done", isError: result.isError };
  if (approval === "pending" && isTurnLive) return { label: "waiting for approval", isError: false };
  if (approval === "expired") return { label: "not decided: the answer ended", isError: false };
  return { label: isTurnLive ? "running" : "no result", isError: false };
}

function describeProgress(progress: ToolProgressView): string {
  const amount = progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return progress.message ? `${amount} · ${progress.message}` : amount;
}

export function ToolCallCard({ name, args, result, progress, approval, isTurnLive }: Props) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.policy.decideApproval.mutationOptions());
  // The decision shows as soon as the server stored it; the event confirming it follows.
  const approvalStatus = approval?.status === "pending" && decide.data ? decide.data.status : approval?.status;
  const status = describeStatus(result, approvalStatus, isTurnLive);
  const isWaiting = approvalStatus === "pending" && isTurnLive;
  const onDecide = (decision: "approve" | "deny") =>
    approval && decide.mutate({ approvalId: approval.approvalId, decision });

  return (
    <div
      className="my-2 rounded-md border border-zinc-200 bg-zinc-50 text-sm dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="tool-call"
      data-approval={approvalStatus}
    >
      <details>
        <summary className="flex cursor-pointer items-center justify-between gap-2 px-3 py-2">
          <span className="min-w-0 break-all font-mono">{name}</span>
          <span
            className={`text-right text-xs ${status.isError ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"}`}
          >
            {approvalStatus === "approved" ? "approved · " : ""}
            {status.label}
            {!result && progress && status.label === "running" ? ` · ${describeProgress(progress)}` : ""}
            {result?.durationMs !== undefined && !Number.isNaN(result.durationMs) ? ` · ${result.durationMs} ms` : ""}
          </span>
        </summary>
        <div className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Arguments</p>
          <ToolText value={args} />
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
      {isWaiting && (
        <div className="flex flex-col gap-2 border-t border-amber-200 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p>
            Run this tool call? <code className="break-all font-mono text-xs">{formatLine(args)}</code>
          </p>
          <div className="flex gap-2">
            <Button aria-label={`Approve ${name}`} disabled={decide.isPending} onClick={() => onDecide("approve")}>
              Approve
            </Button>
            <Button
              variant="secondary"
              aria-label={`Deny ${name}`}
              disabled={decide.isPending}
              onClick={() => onDecide("deny")}
            >
              Deny
            </Button>
          </div>
        </div>
      )}
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
