// One model request, streamed. The rendered call (render.ts, step-limit.ts) goes to the model through
// the AI SDK's single-call streamer, `experimental_streamLanguageModelCall`: the same prompt
// conversion, tool preparation, tool-call parsing and tool-choice check that `streamText` runs for
// each of its steps, without what `streamText` adds around them (its step loop, tool execution,
// stream tee and per-step transforms). Patchbay's turn runner owns the loop, so none of that is
// used, and it cost about 40 % more CPU per streamed chunk (measured: 160–250 µs against
// 100–130 µs per chunk, 100 streams at once, on the 2-core dev box).
// Contract: a failure arrives as an `error` part, whether the provider streamed it or the call threw
// (before the first part or while reading); a thrown one ends the stream. When `abortSignal` fires,
// the stream just ends: the caller tells an abort by its own signal.
import {
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  type LanguageModel,
  type LanguageModelStreamPart,
  type ToolSet,
} from "ai";

import type { StreamTextRequest } from "./render.ts";

export type ModelCallPart = LanguageModelStreamPart<ToolSet>;

/** A rendered request (render.ts); `toolChoice: "none"` for the answer after the step limit. */
export type ModelCallRequest = StreamTextRequest & { toolChoice?: "none" };

/** Streams one request's parts: `for await (const part of streamModelCall(model, call.options, signal))`. */
export async function* streamModelCall(
  model: LanguageModel,
  request: ModelCallRequest,
  abortSignal: AbortSignal,
): AsyncGenerator<ModelCallPart, void, undefined> {
  try {
    const { stream } = await streamLanguageModelCall({ model, ...request, abortSignal });
    yield* stream;
  } catch (error) {
    if (abortSignal.aborted) return;
    yield { type: "error", error };
  }
}
