// A fetch for Patchbay's model clients that stamps each model request when it is sent and each
// Anthropic text delta when the AI SDK reads it from the response, per bench session (found from the request's "bench session i" prompt). That is
// the provider's pacing as Patchbay experiences it, the baseline "added" latency is measured from.
// The body passes through unchanged; the probe only parses a copy of each SSE event.
import { performance } from "node:perf_hooks";

import { sessionIndexOf } from "./slow-reply.ts";

export type ProbedChunk = { at: number; text: string };

type AnthropicEvent = { type?: string; delta?: { type?: string; text?: string } };

function lastUserText(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  const parsed = JSON.parse(body) as { messages?: { role: string; content: unknown }[] };
  const last = parsed.messages?.findLast((message) => message.role === "user");
  return JSON.stringify(last?.content ?? "");
}

function stamp(chunks: ProbedChunk[]): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffered = "";
  return new TransformStream({
    transform(bytes, controller) {
      const at = performance.now();
      buffered += decoder.decode(bytes, { stream: true });
      const events = buffered.split("\n\n");
      buffered = events.pop() ?? "";
      for (const event of events) {
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        if (!data) continue;
        const parsed = JSON.parse(data.slice(6)) as AnthropicEvent;
        if (parsed.type === "content_block_delta" && parsed.delta?.type === "text_delta") {
          chunks.push({ at, text: parsed.delta.text ?? "" });
        }
      }
      controller.enqueue(bytes);
    },
  });
}

export function createProviderProbe() {
  const bySession = new Map<number, ProbedChunk[]>();
  const requestedAt = new Map<number, number>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const index = sessionIndexOf(lastUserText(init?.body));
    if (index !== null) requestedAt.set(index, performance.now());
    const response = await globalThis.fetch(input, init);
    if (index === null || !response.body) return response;
    const chunks: ProbedChunk[] = [];
    bySession.set(index, chunks);
    return new Response(response.body.pipeThrough(stamp(chunks)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return {
    fetch,
    chunksOf: (index: number) => bySession.get(index) ?? [],
    /** When Patchbay sent session `index`'s model request (performance.now()), if it did. */
    requestedAt: (index: number) => requestedAt.get(index),
  };
}
