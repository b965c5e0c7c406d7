// Failed registry rebuilds. A chat's tools are rebuilt in the background when a connector announces
// list_changed or changes health, or a persona changes; a rebuild that fails leaves the chat on its
// last revision. Such a failure is never swallowed: it is logged for the operator and kept here until
// a later rebuild of that chat succeeds, and the Tools panel shows it (and retries), so the panel
// never claims a tool set the model does not see. Kept in memory, per app instance.
import { AppError } from "../errors.ts";
import { ToolError } from "../core/tool-source.ts";

export type RebuildFailure = { reason: string; message: string };

const MAX_KEPT = 1_000;

/** What a user may read about a failed rebuild: our own error messages, never a raw database error. */
export function describeRebuildError(error: unknown): string {
  if (error instanceof AppError || error instanceof ToolError) return error.message;
  return "The server could not save the new tool set; the server log has the details.";
}

export class RebuildFailures {
  private readonly failures = new Map<string, RebuildFailure>();

  record(sessionId: string, reason: string, error: unknown): void {
    console.warn(`[patchbay] the tools of chat ${sessionId} could not be rebuilt (${reason}):`, error);
    if (this.failures.size >= MAX_KEPT) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(sessionId, { reason, message: describeRebuildError(error) });
  }

  clear(sessionId: string): void {
    this.failures.delete(sessionId);
  }

  get(sessionId: string): RebuildFailure | null {
    return this.failures.get(sessionId) ?? null;
  }
}
