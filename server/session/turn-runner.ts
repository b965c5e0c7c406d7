// One turn, start to end: for each model request it reads the canonical history, the chat's context
// overlays (applied to it for this request only: context-overlays.ts) and the current tool
// snapshot, renders the provider request afresh (renderers are pure), streams the answer into
// the canonical message (persisting batches as they arrive), runs the tool calls through the tool
// source (tool-round.ts: limits, approvals, followup questions), and loops with the results until the
// model answers without tools, calls attempt_completion, or the step cap is hit; at the cap, one last request without tools asks the model to
// answer from the results it has (step-limit.ts). The system prompt is the caller's (the chat's
// persona, or the instance default). Each request's audit row gets its token usage and duration. The turn stops writing as soon as its AbortSignal fires; whoever aborted it
// records why.
import { AppError, isAppError } from "../errors.ts";
import { limitMessage } from "../policy/limits.ts";
import { extractHiddenToolCalls } from "../providers/hidden-tool-calls.ts";
import { renderRequest, type RenderedRequest, type RenderInput } from "../providers/render.ts";
import { safeErrorMessage } from "../providers/safe-error.ts";
import { requestBytes, toolLimitProblem } from "../core/tool-limits.ts";
import { streamModelCall } from "../providers/model-call.ts";
import { decodeModelStream } from "../providers/stream-events.ts";
import { AssistantDraft, newCanonicalCallId } from "./assistant-draft.ts";
import { retryWhileDatabaseUnavailable } from "./database-retry.ts";
import type { ProviderId, ProviderOrigin, ToolCallPart } from "../core/canonical.ts";
import { streamPoolOf } from "../db/client.ts";
import { EventIdReservation } from "./event-ids.ts";
import { appendEvent, type EventInput } from "./event-log.ts";
import { toPartDto } from "./history.ts";
import { createWriter } from "./streaming-message.ts";
import { renderFinalRequest } from "./step-limit.ts";
import { isStepAborted, runToolRound, StepAborted } from "./tool-round.ts";
import type { SourceSnapshot } from "../core/tool-source.ts";
import { loadTurnHistory } from "./transcript.ts";
import { applyOverlays } from "../core/context-overlays.ts";
import { loadOverlays } from "./overlays.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";
import { newRowId, recordRequestEnd } from "./turn-sql.ts";
import { REQUEST_START_EVENTS, startRequest } from "./request-start.ts";

export type TurnOutcome = {
  status: "completed" | "failed" | "aborted";
  error?: { code: string; message: string };
  usage: { inputTokens: number; outputTokens: number };
  steps: number;
};

export async function runTurn(turn: TurnSpec, deps: TurnDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  // The turn's own event ids; a sent turn's first block was reserved with its claim.
  const ids = new EventIdReservation(streamPoolOf(deps.db), turn.sessionId, turn.opening?.eventIds);
  let step = 0;
  try {
    for (; step < deps.maxSteps; step++) {
      const { draft, snapshot } = await runStep(turn, deps, ids, step, signal);
      addUsage(usage, draft);
      if (draft.error)
        return { status: "failed", error: { code: "provider", message: draft.error }, usage, steps: step + 1 };
      if (draft.toolCalls.length === 0) return { status: "completed", usage, steps: step + 1 };
      const round = await runToolRound(turn, deps, draft.toolCalls, snapshot, signal);
      if (round.completion !== null) return { status: "completed", usage, steps: step + 1 }; // attempt_completion
    }
    return await answerAtStepLimit(turn, deps, ids, usage, signal);
  } catch (error) {
    if (signal.aborted || isStepAborted(error)) return { status: "aborted", usage, steps: step + 1 };
    return { status: "failed", error: describeFailure(error), usage, steps: step + 1 };
  }
}

function addUsage(usage: TurnOutcome["usage"], draft: AssistantDraft): void {
  usage.inputTokens += draft.usage.inputTokens ?? 0;
  usage.outputTokens += draft.usage.outputTokens ?? 0;
}

/**
 * The model was still calling tools at the step cap: the user is told (`limit.reached`, and the
 * turn's `step_limit` note), and the model gets one last request without tools to answer from the
 * results it has not read yet (step-limit.ts). A tool call in that answer is refused by the AI SDK
 * (tool choice `none`): it is never run, and the request fails as a provider error.
 */
async function answerAtStepLimit(
  turn: TurnSpec,
  deps: TurnDeps,
  ids: EventIdReservation,
  usage: TurnOutcome["usage"],
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const steps = deps.maxSteps + 1;
  const message = limitMessage("steps", deps.maxSteps);
  await emit(deps, turn, "limit.reached", { limit: "steps", max: deps.maxSteps, callIds: [], message });
  const { draft } = await runStep(turn, deps, ids, deps.maxSteps, signal, { isFinal: true });
  addUsage(usage, draft);
  if (draft.error) return { status: "failed", error: { code: "provider", message: draft.error }, usage, steps };
  return { status: "completed", error: { code: "step_limit", message }, usage, steps };
}

function describeFailure(error: unknown): { code: string; message: string } {
  if (isAppError(error)) return { code: error.code, message: error.message };
  console.warn("[patchbay] model request failed:", safeErrorMessage(error));
  return { code: "provider", message: safeErrorMessage(error) };
}

/** One model request: the answer, and the tool snapshot it was shown (its calls run in that revision). */
type StepResult = { draft: AssistantDraft; snapshot: SourceSnapshot };
/** isFinal: the request after the step limit (no tools offered, hidden calls not adopted). */
type StepMode = { isFinal?: boolean };

/**
 * Reads the history and the current tools, and renders the request (step-limit.ts for the final
 * one). The first request of a turn started by a send takes what the send's statement read with
 * its claim (turn.opening) instead of reading it again.
 */
async function prepareStep(turn: TurnSpec, deps: TurnDeps, index: number, mode: StepMode, signal: AbortSignal) {
  const opening = index === 0 ? turn.opening : undefined;
  const [history, overlays, snapshot, resolved] = await Promise.all([
    opening?.history ?? loadTurnHistory(deps.db, turn),
    opening?.overlays ?? loadOverlays(deps.db, turn.sessionId),
    deps.tools.snapshot(turn.sessionId, opening?.toolsRevision),
    deps.resolveModel(
      { provider: turn.provider, model: turn.model, accountId: turn.accountId, sessionId: turn.sessionId },
      signal,
    ),
  ]);
  const overlaid = applyOverlays({ system: deps.system, messages: history }, overlays.overlays);
  const input: RenderInput = {
    provider: turn.provider,
    modelId: turn.model,
    transcript: overlaid.transcript,
    snapshot,
    isFollowUp: index > 0,
    nativeTools: resolved.nativeTools,
    origin: resolved.origin,
  };
  const call = mode.isFinal ? renderFinalRequest(input, deps.maxSteps) : renderRequest(input);
  assertWithinProviderLimits(turn.provider, call, snapshot);
  const applied = { overlayRevision: overlays.revision, overlays: overlaid.report };
  return { snapshot, model: resolved.model, origin: resolved.origin, call, applied };
}

/**
 * A request the provider would refuse (too many tools, too large: tool-limits.ts) is not sent; the
 * turn fails with words that say why and what to switch off.
 */
function assertWithinProviderLimits(provider: ProviderId, call: RenderedRequest, snapshot: SourceSnapshot): void {
  const declared = snapshot.tools.filter((tool) => call.tools[tool.exposedName] !== undefined);
  const body = {
    system: call.system,
    messages: call.messages,
    tools: declared.map(({ exposedName, description, inputSchema }) => ({ exposedName, description, inputSchema })),
  };
  const problem = toolLimitProblem(provider, {
    toolCount: Object.keys(call.tools).length,
    requestBytes: requestBytes(body),
  });
  if (problem) throw new AppError("bad_request:tools", problem);
}

async function runStep(
  turn: TurnSpec,
  deps: TurnDeps,
  ids: EventIdReservation,
  index: number,
  signal: AbortSignal,
  mode: StepMode = {},
): Promise<StepResult> {
  // The ids of the request's first events are in hand by the time it is rendered (a refill, when
  // needed, runs beside the reads).
  const [{ snapshot, model, origin, call, applied }] = await Promise.all([
    prepareStep(turn, deps, index, mode, signal),
    ids.ensure(REQUEST_START_EVENTS + 1),
  ]);
  if (signal.aborted) throw new StepAborted();
  // The request goes out first; its bookkeeping is written while the model thinks, and the stream
  // is read at once. The request's own first events (request.started, message.created) and its
  // deltas are numbered here and published to this process's subscribers at once; they are stored
  // behind the bookkeeping (its message row must exist), so Patchbay adds almost nothing to the
  // time to first token, however slow the database is right then.
  const bookkeeping = new AbortController();
  const sentAt = performance.now();
  // Retries happen in the model itself, only before output (retry-before-output.ts); errors arrive
  // as error events and end the step.
  const parts = streamModelCall(model, call.options, AbortSignal.any([signal, bookkeeping.signal]));
  const messageId = newRowId();
  const request = { requestId: newRowId(), messageId, turnId: turn.id, sessionId: turn.sessionId, index };
  const order = startRequest(
    deps.db,
    turn,
    ids,
    { ...request, toolsRevision: snapshot.revision, toolNames: call.toolNames, ...applied },
    () => bookkeeping.abort(), // ends the stream below; the writer rethrows the error
  );
  const draft = new AssistantDraft(turn.provider, snapshot, origin);
  const writer = createWriter(deps, turn, messageId, draft, signal, order);
  const firstTokenAt = await readStream(parts, turn.provider, origin, draft, writer);
  if (signal.aborted) throw new StepAborted();
  const hasHiddenCalls = !mode.isFinal && draft.toolCalls.length === 0 && !draft.error && adoptHiddenToolCalls(draft);
  await writer.close();
  const durationMs = Math.round(performance.now() - sentAt);
  const usage = { inputTokens: draft.usage.inputTokens ?? null, outputTokens: draft.usage.outputTokens ?? null };
  const finishReason = draft.error ? "error" : draft.finishReason;
  const events: EventInput[] = [{ type: "request.finished", data: { index, finishReason, ...usage, durationMs } }];
  if (hasHiddenCalls) events.push({ type: "message.updated", data: { messageId, parts: draft.parts.map(toPartDto) } });
  // A short database outage here is waited out (database-retry.ts), not the end of the turn.
  await retryWhileDatabaseUnavailable(() =>
    recordRequestEnd(deps.db, {
      requestId: request.requestId,
      turnId: turn.id,
      sessionId: turn.sessionId,
      isFirstRequest: index === 0,
      firstTokenAt,
      finishReason,
      usage: draft.usage,
      durationMs,
      // The final parts (with what only the end brings: signatures, adopted calls) unless aborted.
      message: signal.aborted ? null : { id: messageId, parts: draft.parts, events },
    }),
  );
  return { draft, snapshot };
}

/** Applies the stream to the draft, publishing as it goes; the time of the first token, if any. */
async function readStream(
  stream: Parameters<typeof decodeModelStream>[0],
  provider: ProviderId,
  origin: ProviderOrigin | undefined,
  draft: AssistantDraft,
  writer: ReturnType<typeof createWriter>,
): Promise<Date | null> {
  let firstTokenAt: Date | null = null;
  try {
    for await (const event of decodeModelStream(stream, provider, origin)) {
      firstTokenAt ??= event.type === "text-delta" || event.type === "reasoning-delta" ? new Date() : null;
      const toolCall = draft.apply(event);
      if (toolCall) await writer.publishToolCall(toolCall);
      else writer.schedule();
    }
  } catch (error) {
    await writer.settled(); // a failed write (it aborted the stream) is the cause to report
    throw error;
  }
  await writer.settled();
  return firstTokenAt;
}

/** Tool calls a model wrote as XML in its text (`<tool_use>`, `<use_mcp_tool>`) become real calls. */
export function adoptHiddenToolCalls(draft: AssistantDraft): boolean {
  let isChanged = false;
  for (const part of draft.parts) {
    if (part.type !== "text") continue;
    const found = extractHiddenToolCalls(part.text);
    for (const warning of found.warnings) console.warn(`[patchbay] hidden tool call skipped: ${warning}`);
    if (found.calls.length === 0) continue;
    part.text = found.text;
    isChanged = true;
    for (const hidden of found.calls) {
      const canonicalName = `${hidden.server}.${hidden.tool}`;
      const call: ToolCallPart = {
        type: "tool-call",
        id: newCanonicalCallId(),
        name: canonicalName,
        args: hidden.args,
      };
      draft.parts.push(call);
      draft.toolCalls.push(call);
    }
  }
  return isChanged;
}

function emit(
  deps: TurnDeps,
  turn: TurnSpec,
  type: Parameters<typeof appendEvent>[1]["type"],
  data: Record<string, unknown>,
) {
  return appendEvent(deps.db, { sessionId: turn.sessionId, turnId: turn.id, type, data });
}
