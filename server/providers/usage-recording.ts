// Hands a model request's token usage to a sink when its stream finishes: how requests on the
// operator's keys are recorded per user and model (server/policy/usage-limits.ts). The stream
// passes through unchanged, its finish part only after the sink is done (so the next request of
// the turn is checked against tokens already counted); a failing sink is logged, never felt.
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

export type TokenUsage = { inputTokens: number; outputTokens: number };
export type UsageSink = (usage: TokenUsage) => Promise<void>;

export function withUsageRecording(model: LanguageModelV4, sink: UsageSink): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        const recorder = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          // Synchronous for every part but the finish: no promise per streamed chunk.
          transform(part, controller) {
            if (part.type !== "finish") return controller.enqueue(part);
            const usage = {
              inputTokens: part.usage.inputTokens.total ?? 0,
              outputTokens: part.usage.outputTokens.total ?? 0,
            };
            return sink(usage)
              .catch((error: unknown) => console.error("[patchbay] recording token usage failed", error))
              .then(() => controller.enqueue(part));
          },
        });
        return { ...result, stream: result.stream.pipeThrough(recorder) };
      },
    },
  });
}
