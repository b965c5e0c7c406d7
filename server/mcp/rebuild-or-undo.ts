// The rebuild after a change the user saved to a chat's tools (a connector or tool switch, a tool
// policy, the chat's persona). Invariant: the saved state and the latest revision agree. If the
// rebuild fails, the change is undone (only if nobody changed it since: `undo` is a compare-and-set
// the caller writes), the restored state is rebuilt once more (another instance may have published
// the change meanwhile; a failure there is kept for the Tools panel by rebuild-failures.ts), and the
// user is told what was undone and why.
import { AppError, isAppError } from "../errors.ts";
import { describeRebuildError } from "./rebuild-failures.ts";
import type { McpRegistry } from "./registry.ts";

export type UndoableChange = {
  sessionId: string;
  /** The revision's reason, e.g. "connector on". */
  reason: string;
  /** What the user is told was undone, e.g. "switch", "policy change". */
  what: string;
  undo: () => Promise<unknown>;
};

export async function rebuildOrUndo(
  registry: Pick<McpRegistry, "rebuild" | "rebuildSessions">,
  change: UndoableChange,
): Promise<{ revision: number }> {
  const { sessionId, reason, what, undo } = change;
  try {
    return { revision: await registry.rebuild(sessionId, reason) };
  } catch (error) {
    await undo();
    await registry.rebuildSessions([sessionId], `${reason} undone`);
    const code = isAppError(error) ? error.code : "unavailable:tools";
    throw new AppError(code, `The ${what} was undone: ${describeRebuildError(error)}`, { cause: error });
  }
}
