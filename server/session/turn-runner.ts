// One turn, start to end: for each model request it reads the canonical history and the current
// tool snapshot, renders the provider request afresh (renderers are pure), streams the answer into
// the canonical message (persisting batches as they arrive), runs the tool calls through the tool
// source (tool-round.ts: limits, approvals), and loops with the results until the model answers
// without tools or the step cap is hit. The system prompt is the caller's (the chat's persona, or
// the instance default). The turn stops writing as soon as its AbortSignal fires; whoever aborted it
// records why.
import { streamText } from "ai";

import type { Db } from "../db.ts";
import { AppError } from "../errors.ts";
import { limitMessage, type ToolCallLimits } from "../policy/limits.ts";
import { extractHiddenToolCalls } from "../providers/hidden-tool-calls.ts";
import type { ModelResolver } from "../providers/model-resolver.ts";
import { renderRequest } from "../providers/render.ts";
import { safeErrorMessage } from "../providers/safe-error.ts";
import { decodeFullStream } from "../providers/stream-events.ts";
import { AssistantDraft, newCanonicalCallId } from "./assistant-draft.ts";
import type { ProviderId, ToolCallPart } from "./canonical.ts";
import { appendEvent, publishMessageDeltas, type EventInput } from "./event-store.ts";
import { toPartDto } from "./history.ts";
import { runToolRound, StepAborted } from "./tool-round.ts";
import type { SourceSnapshot, ToolSource } from "./tool-runner.ts";
import { loadTurnHistory } from "./transcript.ts";
import { newRowId, recordRequestEnd, recordRequestStart } from "./turn-writes.ts";

export type TurnSpec = {
  id: string;
  sessionId: string;
  historySeq: number;
  provider: ProviderId;
  model: string;
  /** The user's provider account; null: the server-wide configuration. */
  accountId: string | null;
};

export type TurnDeps = {
  db: Db;
  tools: ToolSource;
  resolveModel: ModelResolver;
  maxSteps: number;
  toolTimeoutMs: number;
  limits: ToolCallLimits;
  system?: string;
  flushIntervalMs?: number;
};

export type TurnOutcome = {
  status: "completed" | "failed" | "aborted";
  error?: { code: string; message: string };
  usage: { inputTokens: number; outputTokens: number };
  steps: number;
};

const DEFAULT_FLUSH_MS = 16;

export async function runTurn(turn: TurnSpec, deps: TurnDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  let step = 0;
  try {
    for (; step < deps.maxSteps; step++) {
      const { draft, snapshot } = await runStep(turn, deps, step, signal);
      usage.inputTokens += draft.usage.inputTokens ?? 0;
      usage.outputTokens += draft.usage.outputTokens ?? 0;
      if (draft.error)
        return { status: "failed", error: { code: "provider", message: draft.error }, usage, steps: step + 1 };
      if (draft.toolCalls.length === 0) return { status: "completed", usage, steps: step + 1 };
      await runToolRound(turn, deps, draft.toolCalls, snapshot, signal);
    }
    const message = limitMessage("steps", deps.maxSteps);
    await emit(deps, turn, "limit.reached", { limit: "steps", max: deps.maxSteps, callIds: [], message });
    return { status: "completed", error: { code: "step_limit", message }, usage, steps: step };
  } catch (error) {
    if (signal.aborted || error instanceof StepAborted) return { status: "aborted", usage, steps: step + 1 };
    return { status: "failed", error: describeFailure(error), usage, steps: step + 1 };
  }
}

function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  console.warn("[patchbay] model request failed:", safeErrorMessage(error));
  return { code: "provider", message: safeErrorMessage(error) };
}

/** One model request: the answer, and the tool snapshot it was shown (its calls run in that revision). */
type StepResult = { draft: AssistantDraft; snapshot: SourceSnapshot };

async function runStep(turn: TurnSpec, deps: TurnDeps, index: number, signal: AbortSignal): Promise<StepResult> {
  const { db } = deps;
  const [history, snapshot, resolved] = await Promise.all([
    loadTurnHistory(db, turn),
    deps.tools.snapshot(turn.sessionId),
    deps.resolveModel(
      { provider: turn.provider, model: turn.model, accountId: turn.accountId, sessionId: turn.sessionId },
      signal,
    ),
  ]);
  const call = renderRequest({
    provider: turn.provider,
    modelId: turn.model,
    transcript: { system: deps.system, messages: history },
    snapshot,
    isFollowUp: index > 0,
    nativeTools: resolved.nativeTools,
    origin: resolved.origin,
  });
  if (signal.aborted) throw new StepAborted();
  // The request goes out first; its bookkeeping is written while the model thinks, and the stream
  // is read at once: the writer publishes nothing before the bookkeeping committed (its message row
  // must exist), so Patchbay adds almost nothing to the time to first token.
  const bookkeeping = new AbortController();
  const result = streamText({
    model: resolved.model,
    ...call.options,
    abortSignal: AbortSignal.any([signal, bookkeeping.signal]),
    maxRetries: 1,
    onError: () => undefined, // errors arrive as error events in fullStream and end the step
  });
  const [requestId, messageId] = [newRowId(), newRowId()];
  const recorded = recordRequestStart(deps.db, {
    requestId,
    messageId,
    turnId: turn.id,
    sessionId: turn.sessionId,
    index,
    toolsRevision: snapshot.revision,
    toolNames: call.toolNames,
  }).catch((error: unknown) => {
    bookkeeping.abort(); // ends the stream below; the writer rethrows this error
    throw error;
  });

  const draft = new AssistantDraft(turn.provider, snapshot, resolved.origin);
  const writer = createWriter(deps, turn, messageId, draft, signal, recorded);
  let firstTokenAt: Date | null = null;
  try {
    for await (const event of decodeFullStream(result.fullStream, turn.provider, resolved.origin)) {
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
  if (signal.aborted) throw new StepAborted();
  const hasHiddenCalls = draft.toolCalls.length === 0 && !draft.error && adoptHiddenToolCalls(draft);
  await writer.close();
  const updated: EventInput[] = hasHiddenCalls
    ? [{ type: "message.updated", data: { messageId, parts: draft.parts.map(toPartDto) } }]
    : [];
  await recordRequestEnd(deps.db, {
    requestId,
    turnId: turn.id,
    sessionId: turn.sessionId,
    isFirstRequest: index === 0,
    firstTokenAt,
    finishReason: draft.error ? "error" : draft.finishReason,
    usage: draft.usage,
    // The final parts (with what only the end brings: signatures, adopted calls) unless aborted.
    message: signal.aborted ? null : { id: messageId, parts: draft.parts, events: updated },
  });
  return { draft, snapshot };
}

/** Tool calls a model wrote as XML in its text (`<tool_use>`, `<use_mcp_tool>`) become real calls. */
function adoptHiddenToolCalls(draft: AssistantDraft): boolean {
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

/**
 * Persists the draft. The first delta of a request is published at once (time to first token),
 * later ones in batches every flushIntervalMs; a tool call at once, with the deltas before it. Each
 * batch writes the message's parts and the events that brought it there in one statement
 * (publishMessageDeltas), so a history read holds exactly the content of the events up to its
 * lastEventId. The parts are serialised when the batch is taken, so the draft may grow meanwhile.
 * Writes queue behind `ready` (the request's bookkeeping) and each other; the first failure stops
 * the queue and is rethrown by settled(), publishToolCall() and close(). Nothing is written after
 * the turn was aborted.
 */
function createWriter(
  deps: TurnDeps,
  turn: TurnSpec,
  messageId: string,
  draft: AssistantDraft,
  signal: AbortSignal,
  ready: Promise<void>,
) {
  let timer: NodeJS.Timeout | null = null;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => void (failure ??= { error });
  let chain: Promise<void> = ready.catch(fail);
  let isFirst = true;
  const settled = async () => {
    await chain;
    if (failure) throw failure.error;
  };
  const publish = (extra: EventInput[]) => {
    chain = chain
      .then(async () => {
        if (signal.aborted || failure) return;
        const events: EventInput[] = draft.takePending().map((delta) => ({
          type: delta.kind === "text" ? "text.delta" : "reasoning.delta",
          data: { messageId, partIndex: delta.partIndex, text: delta.text },
        }));
        events.push(...extra);
        if (events.length === 0) return;
        await publishMessageDeltas(deps.db, {
          sessionId: turn.sessionId,
          turnId: turn.id,
          messageId,
          parts: draft.parts, // serialised by the call, before anything else runs: exactly these deltas
          events,
        });
      })
      .catch(fail);
    return settled();
  };
  const flush = () => {
    timer = null;
    return publish([]);
  };
  return {
    settled,
    schedule() {
      if (isFirst) {
        isFirst = false;
        void flush().catch(() => undefined); // surfaced by settled() / close()
        return;
      }
      timer ??= setTimeout(() => void flush().catch(() => undefined), deps.flushIntervalMs ?? DEFAULT_FLUSH_MS);
    },
    async publishToolCall(call: ToolCallPart) {
      if (timer) clearTimeout(timer);
      timer = null;
      const partIndex = draft.parts.indexOf(call);
      await publish([{ type: "tool.call", data: { messageId, partIndex, call: toPartDto(call) } }]);
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
  };
}
