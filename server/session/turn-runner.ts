// One turn, start to end: for each model request it reads the canonical history and the current
// tool snapshot, renders the provider request afresh (renderers are pure), streams the answer into
// the canonical message (persisting batches as they arrive), runs the tool calls through the tool
// source (tool-round.ts: limits, approvals), and loops with the results until the model answers
// without tools or the step cap is hit. The system prompt is the caller's (the chat's persona, or
// the instance default). The turn stops writing as soon as its AbortSignal fires; whoever aborted it
// records why.
import { streamText, type LanguageModel } from "ai";

import type { Db } from "../db.ts";
import { limitMessage, type ToolCallLimits } from "../policy/limits.ts";
import { extractHiddenToolCalls } from "../providers/hidden-tool-calls.ts";
import { renderRequest } from "../providers/render.ts";
import { safeErrorMessage } from "../providers/safe-error.ts";
import { decodeFullStream } from "../providers/stream-events.ts";
import { AssistantDraft, newCanonicalCallId } from "./assistant-draft.ts";
import type { ProviderId, ToolCallPart } from "./canonical.ts";
import { appendEvent, publishMessageDeltas } from "./events.ts";
import { toPartDto } from "./history.ts";
import { runToolRound, StepAborted } from "./tool-round.ts";
import type { ToolSource } from "./tool-runner.ts";
import { appendMessage, loadTurnHistory, updateMessageParts } from "./transcript.ts";

export type TurnSpec = { id: string; sessionId: string; historySeq: number; provider: ProviderId; model: string };

export type TurnDeps = {
  db: Db;
  tools: ToolSource;
  resolveModel: (provider: ProviderId, modelId: string) => LanguageModel;
  nativeTools: boolean;
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
      const draft = await runStep(turn, deps, step, signal);
      usage.inputTokens += draft.usage.inputTokens ?? 0;
      usage.outputTokens += draft.usage.outputTokens ?? 0;
      if (draft.error)
        return { status: "failed", error: { code: "provider", message: draft.error }, usage, steps: step + 1 };
      if (draft.toolCalls.length === 0) return { status: "completed", usage, steps: step + 1 };
      await runToolRound(turn, deps, draft.toolCalls, signal);
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
  console.warn("[patchbay] model request failed:", safeErrorMessage(error));
  return { code: "provider", message: safeErrorMessage(error) };
}

async function runStep(turn: TurnSpec, deps: TurnDeps, index: number, signal: AbortSignal): Promise<AssistantDraft> {
  const { db } = deps;
  const [history, snapshot] = await Promise.all([loadTurnHistory(db, turn), deps.tools.snapshot(turn.sessionId)]);
  const call = renderRequest({
    provider: turn.provider,
    modelId: turn.model,
    transcript: { system: deps.system, messages: history },
    snapshot,
    isFollowUp: index > 0,
    nativeTools: deps.nativeTools,
  });
  if (signal.aborted) throw new StepAborted();
  // The request goes out first; its bookkeeping is written while the model thinks (the SDK buffers
  // the stream until it is read), so Patchbay adds almost nothing to the time to first token.
  const bookkeeping = new AbortController();
  const result = streamText({
    model: deps.resolveModel(turn.provider, turn.model),
    ...call.options,
    abortSignal: AbortSignal.any([signal, bookkeeping.signal]),
    maxRetries: 1,
    onError: () => undefined, // errors arrive as error events in fullStream and end the step
  });
  const { request, message } = await recordRequestStart(turn, deps, index, snapshot.revision, call.toolNames).catch(
    (error: unknown) => {
      bookkeeping.abort();
      throw error;
    },
  );

  const draft = new AssistantDraft(turn.provider, snapshot);
  const writer = createWriter(deps, turn, message.id, draft, signal);
  let firstTokenAt: Date | null = null;
  for await (const event of decodeFullStream(result.fullStream, turn.provider)) {
    firstTokenAt ??= event.type === "text-delta" || event.type === "reasoning-delta" ? new Date() : null;
    const toolCall = draft.apply(event);
    if (toolCall) await writer.publishToolCall(toolCall);
    else writer.schedule();
  }
  if (signal.aborted) throw new StepAborted();
  const hasHiddenCalls = draft.toolCalls.length === 0 && !draft.error && adoptHiddenToolCalls(draft);
  await writer.close();
  if (hasHiddenCalls)
    await emit(deps, turn, "message.updated", { messageId: message.id, parts: draft.parts.map(toPartDto) });
  await db.turnRequest.update({
    where: { id: request.id },
    data: {
      endedAt: new Date(),
      firstTokenAt,
      finishReason: draft.error ? "error" : draft.finishReason,
      inputTokens: draft.usage.inputTokens ?? null,
      outputTokens: draft.usage.outputTokens ?? null,
    },
  });
  if (firstTokenAt && index === 0) await db.turn.update({ where: { id: turn.id }, data: { firstTokenAt } });
  return draft;
}

/** The audit row of a model request, the (empty) assistant message, and their events. */
async function recordRequestStart(
  turn: TurnSpec,
  deps: TurnDeps,
  index: number,
  revision: number,
  toolNames: string[],
) {
  const { db } = deps;
  const [request, message] = await Promise.all([
    db.turnRequest.create({ data: { turnId: turn.id, index, toolsRevision: revision, toolNames } }),
    appendMessage(db, turn.sessionId, turn.id, { role: "assistant", parts: [] }),
    db.turn.update({ where: { id: turn.id }, data: { stepCount: index + 1 } }),
  ]);
  await emit(deps, turn, "request.started", { index, toolsRevision: revision, toolNames });
  await emit(deps, turn, "message.created", { messageId: message.id, role: "assistant" });
  return { request, message };
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
 * later ones in batches every flushIntervalMs. Each batch rewrites the message's parts BEFORE it
 * appends the delta events: a history read always contains every delta up to its lastEventId, so
 * a reload never misses text. Nothing is written after the turn was aborted.
 */
function createWriter(deps: TurnDeps, turn: TurnSpec, messageId: string, draft: AssistantDraft, signal: AbortSignal) {
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let isFirst = true;
  const writeParts = () => updateMessageParts(deps.db, messageId, draft.parts);
  const flush = () => {
    timer = null;
    chain = chain.then(async () => {
      if (signal.aborted) return;
      const deltas = draft.takePending();
      if (deltas.length === 0) return;
      const parts = structuredClone(draft.parts); // exactly the text of the deltas taken above
      await publishMessageDeltas(deps.db, {
        sessionId: turn.sessionId,
        turnId: turn.id,
        messageId,
        parts,
        events: deltas.map((delta) => ({
          type: delta.kind === "text" ? "text.delta" : "reasoning.delta",
          data: { messageId, partIndex: delta.partIndex, text: delta.text },
        })),
      });
    });
    return chain;
  };
  return {
    schedule() {
      if (isFirst) {
        isFirst = false;
        void flush();
        return;
      }
      timer ??= setTimeout(() => void flush(), deps.flushIntervalMs ?? DEFAULT_FLUSH_MS);
    },
    async publishToolCall(call: ToolCallPart) {
      if (timer) clearTimeout(timer);
      await flush();
      chain = chain.then(async () => {
        if (signal.aborted) return;
        await writeParts();
        await emit(deps, turn, "tool.call", { messageId, partIndex: draft.parts.indexOf(call), call: toPartDto(call) });
      });
      await chain;
    },
    async close() {
      if (timer) clearTimeout(timer);
      await flush();
      if (!signal.aborted) await writeParts();
    },
  };
}
