// The seam between a turn and the tools it may call. A ToolSource says which tools a session has
// right now (an immutable snapshot with a revision) and runs one call. `runToolCall` wraps any
// source with the guarantees a turn relies on: validated by the source, bounded by a timeout,
// cancelled by the turn's AbortSignal, and never throwing — every failure becomes a structured
// error result the model can read. The MCP registry is a ToolSource; so are the built-in tools.
import { brandOf, hasBrand } from "./brand.ts";
import type { ExposedPolicy } from "./tool-policy.ts";
import type { JsonValue, ToolSpec } from "./canonical.ts";

export type ToolProgress = { progress: number; total?: number; message?: string };
export type ToolCallRequest = {
  canonicalName: string;
  args: Record<string, JsonValue>;
  /**
   * The revision of the snapshot the model was shown when it issued the call: the call runs against
   * that revision's tools, so a switch made after the request applies from the next request only.
   */
  revision: number;
  /** Progress notifications of a long tool, when the tool sends them. */
  onProgress?: (progress: ToolProgress) => void;
};
export type ToolOutcome = { output: JsonValue; isError: boolean };
export type ToolErrorCode =
  | "unknown_tool"
  | "invalid_arguments"
  | "timeout"
  | "cancelled"
  | "failed"
  /** The tool's server went away or cannot be reached now. */
  | "unavailable"
  /** The tool ran and reported a failure of its own (an MCP `isError` result). */
  | "tool_error"
  | "denied"
  | "too_many_calls"
  | "rate_limited";

/**
 * A snapshot tool with its policy: `ask` calls wait for the user's approval; absent means `allow`.
 * `readOnly`: marked read-only by its server (the only tools a read-only sub-agent gets);
 * `connectorId`: where it lives (`persona` for a sub-agent), when the source knows.
 */
export type SourceTool = ToolSpec & { policy?: ExposedPolicy; readOnly?: true; connectorId?: string };
/** A ToolSnapshot (what renderers take) whose tools carry their policy. */
export type SourceSnapshot = { revision: number; tools: SourceTool[] };

export interface ToolSource {
  /**
   * The session's latest snapshot. `latestRevision`: the latest revision as the caller has just read
   * it in a statement of its own (0: none built yet), which the source may take instead of reading it.
   */
  snapshot(sessionId: string, latestRevision?: number): Promise<SourceSnapshot>;
  call(sessionId: string, request: ToolCallRequest, signal: AbortSignal): Promise<ToolOutcome>;
}

/** Thrown by a ToolSource for a failure it can describe to the model. */
const toolErrorBrand = brandOf("ToolError");

export class ToolError extends Error {
  override name = "ToolError";
  readonly [toolErrorBrand] = true;
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** True for a ToolError made by any copy of this module (recognised by brand, not instanceof). */
export function isToolError(value: unknown): value is ToolError {
  return hasBrand(value, toolErrorBrand);
}

export function toolErrorResult(code: ToolErrorCode, message: string): ToolOutcome {
  return { output: { error: { code, message } }, isError: true };
}

export async function runToolCall(
  source: ToolSource,
  sessionId: string,
  request: ToolCallRequest,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<ToolOutcome> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const aborted = new Promise<ToolOutcome>((resolve) => {
    const onAbort = () =>
      resolve(
        timeout.aborted && !options.signal.aborted
          ? toolErrorResult("timeout", `The tool did not answer within ${Math.round(options.timeoutMs / 1000)} s.`)
          : toolErrorResult("cancelled", "The tool call was cancelled."),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  const call = source
    .call(sessionId, request, signal)
    .catch((error: unknown) =>
      isToolError(error)
        ? toolErrorResult(error.code, error.message)
        : toolErrorResult("failed", error instanceof Error ? error.message : "The tool failed."),
    );
  return Promise.race([call, aborted]);
}
