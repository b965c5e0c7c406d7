"use client";
// A tool call inside an answer: tool name, arguments, and its result or error once it arrives. A call
// of an `ask` tool waits for the user: while its turn is live the card offers Approve / Deny (the
// decision is stored on the server, so any app instance running the turn picks it up), then shows
// the decision. A denied call's result is the denial the model was given, shown as an error.
import { useMutation } from "@tanstack/react-query";

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
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return text.length > MAX_PREVIEW
    ? `${text.slice(0, MAX_PREVIEW)}\n… (${text.length - MAX_PREVIEW} more characters)`
    : text;
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
          <span className="font-mono">{name}</span>
          <span
            className={`text-xs ${status.isError ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"}`}
          >
            {approvalStatus === "approved" ? "approved · " : ""}
            {status.label}
            {!result && progress && status.label === "running" ? ` · ${describeProgress(progress)}` : ""}
            {result?.durationMs !== undefined && !Number.isNaN(result.durationMs) ? ` · ${result.durationMs} ms` : ""}
          </span>
        </summary>
        <div className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Arguments</p>
          <pre className="overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs">{format(args)}</pre>
          {result && (
            <>
              <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Result</p>
              <pre
                className={`overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs ${result.isError ? "text-red-700 dark:text-red-300" : ""}`}
                data-testid="tool-result"
              >
                {format(result.output)}
              </pre>
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
