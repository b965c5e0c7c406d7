// One model request of a sub-agent run: renders the run's canonical messages for the sub-agent's own
// provider (renderers are pure, the same path as a turn's requests), streams the answer into an
// AssistantDraft, and adopts tool calls written as XML text like a turn does. Nothing is written
// here: the run (sub-agent-run.ts) stores the answer and the request's audit.

import type { SourceSnapshot } from "../core/tool-source.ts";
import type { ModelResolver } from "../providers/model-resolver.ts";
import { renderRequest, type RenderInput } from "../providers/render.ts";
import { streamModelCall } from "../providers/model-call.ts";
import { decodeModelStream } from "../providers/stream-events.ts";
import { AssistantDraft } from "./assistant-draft.ts";
import { renderFinalRequest } from "./step-limit.ts";
import type { SubAgentRecord, SubAgentRequest } from "./sub-agent-store.ts";
import { adoptHiddenToolCalls } from "./turn-runner.ts";

export type SubAgentStepInput = {
  run: SubAgentRecord;
  system: string;
  snapshot: SourceSnapshot;
  index: number;
  /** The request after the step cap: no tools offered, the model answers from what it has. */
  finalAfter?: number;
  resolveModel: ModelResolver;
};

export async function runSubAgentStep(
  input: SubAgentStepInput,
  signal: AbortSignal,
): Promise<{ draft: AssistantDraft; request: SubAgentRequest }> {
  const { run, snapshot, index } = input;
  const target = { provider: run.provider, model: run.model, accountId: run.accountId, sessionId: run.sessionId };
  const resolved = await input.resolveModel(target, signal);
  const render: RenderInput = {
    provider: run.provider,
    modelId: run.model,
    transcript: { system: input.system, messages: run.messages },
    snapshot,
    isFollowUp: index > 0,
    nativeTools: resolved.nativeTools,
    origin: resolved.origin,
  };
  const call = input.finalAfter === undefined ? renderRequest(render) : renderFinalRequest(render, input.finalAfter);
  const sentAt = performance.now();
  const parts = streamModelCall(resolved.model, call.options, signal); // errors arrive as error events
  const draft = new AssistantDraft(run.provider, snapshot, resolved.origin);
  for await (const event of decodeModelStream(parts, run.provider, resolved.origin)) draft.apply(event);
  if (input.finalAfter === undefined && draft.toolCalls.length === 0 && !draft.error) adoptHiddenToolCalls(draft);
  const request: SubAgentRequest = {
    index,
    provider: run.provider,
    model: run.model,
    toolsRevision: snapshot.revision,
    toolNames: call.toolNames,
    finishReason: draft.error ? "error" : draft.finishReason,
    inputTokens: draft.usage.inputTokens ?? null,
    outputTokens: draft.usage.outputTokens ?? null,
    durationMs: Math.round(performance.now() - sentAt),
  };
  return { draft, request };
}
