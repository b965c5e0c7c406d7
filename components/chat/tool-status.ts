// The status of one tool call as the browser shows it, on its card and in the turn details. Each
// status has its own word, so it never rests on colour alone: running, waiting for approval, done,
// error, denied, cancelled (Stop or Apply now ended the call), interrupted (the server stopped), and
// "no result" (the answer failed before the call ran). A call's own error result decides first;
// a call with no result takes the outcome of its turn.
import type { ApprovalStatus, ToolResultView } from "./chat-state.ts";

export type ToolStatus =
  "running" | "waiting" | "done" | "error" | "denied" | "cancelled" | "interrupted" | "undecided" | "no-result";

export const toolStatusLabels: Record<ToolStatus, string> = {
  running: "running",
  waiting: "waiting for approval",
  done: "done",
  error: "error",
  denied: "denied",
  cancelled: "cancelled",
  interrupted: "interrupted",
  undecided: "not decided: the answer ended",
  "no-result": "no result",
};

/** Statuses shown in the error colour. */
export const failedToolStatuses = new Set<ToolStatus>(["error", "denied"]);

/** The `{ error: { code, message } }` a failed call's output carries (Patchbay's own and MCP errors). */
export function toolErrorOf(output: unknown): { code: string | null; message: string } | null {
  const error = (output as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error.message !== "string") return null;
  return { code: typeof error.code === "string" ? error.code : null, message: error.message };
}

export function describeToolStatus(input: {
  result: ToolResultView | undefined;
  approval: ApprovalStatus | undefined;
  /** The status of the turn the call belongs to (`streaming` while it runs). */
  turnStatus: string;
}): ToolStatus {
  const { result, approval, turnStatus } = input;
  if (approval === "denied") return "denied";
  if (result) {
    if (!result.isError) return "done";
    const code = toolErrorOf(result.output)?.code;
    if (code === "denied") return "denied";
    if (code === "cancelled") return "cancelled";
    return "error";
  }
  if (turnStatus === "streaming") return approval === "pending" ? "waiting" : "running";
  if (approval === "expired" || approval === "pending") return "undecided";
  if (turnStatus === "cancelled" || turnStatus === "superseded") return "cancelled";
  if (turnStatus === "interrupted") return "interrupted";
  return "no-result";
}
