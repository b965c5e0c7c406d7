// One streamed answer as a browser sees it, over HTTP + SSE: the chat's event stream
// (GET /api/chats/<id>/events, as the chat view reads it, with the session cookie) followed from the start, then
// `chat.send` (the POST the chat view makes). And the same answer taken straight from the fake
// provider (the floor). Each records when every SSE event carrying text arrived and how many of the
// script's chunks it held, and checks the received text against the script chunk by chunk.
import { performance } from "node:perf_hooks";

import { createSseParser } from "../components/chat/sse-parser.ts";
import type { BenchBrowser } from "./http-app.ts";
import { sessionChunks, sessionPrompt } from "./slow-reply.ts";

export type StreamRun = {
  /** From sending (POST chat.send, or the provider request) to the first text. */
  firstTokenMs: number | null;
  /** Arrival time (performance.now) and chunk count of every SSE event that carried text. */
  arrivals: { at: number; chunks: number }[];
  isComplete: boolean;
  lostChunks: number;
  error?: string;
};

const CHUNK = /s\d{4}c\d{4} /g;
/** The model a new chat's picker shows in the bench app (the server's Anthropic key, its first model). */
const BENCH_CHOICE = { provider: "anthropic", model: "claude-sonnet-4-5", accountId: null };

/** Reads an SSE byte stream with the chat view's parser, giving each frame's data to `onEvent` until it says stop. */
async function readSse(body: ReadableStream<Uint8Array>, onEvent: (data: string) => boolean): Promise<void> {
  const decoder = new TextDecoder();
  let isDone = false;
  const parser = createSseParser((frame) => {
    if (!isDone) isDone = onEvent(frame.data);
  });
  const reader = body.getReader();
  try {
    while (!isDone) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function finishRun(run: StreamRun, text: string, index: number, chunks: number): StreamRun {
  const expected = sessionChunks(index, chunks);
  const received = text.match(CHUNK) ?? [];
  const lost = expected.filter((chunk, at) => received[at] !== chunk).length;
  return { ...run, lostChunks: lost, isComplete: lost === 0 && received.length === expected.length };
}

type PatchbayEvent = { type: string; data: { text?: string } };

function parseEvent(data: string): PatchbayEvent | null {
  try {
    const event = JSON.parse(data) as Partial<PatchbayEvent>;
    return typeof event.type === "string" ? (event as PatchbayEvent) : null;
  } catch {
    return null;
  }
}

/** Follows the chat's events, sends the bench prompt for `index`, and records the answer's arrival. */
export async function streamThroughPatchbay(
  url: string,
  browser: BenchBrowser,
  index: number,
  options: { chunks: number; timeoutMs: number; startGate?: Promise<void> },
): Promise<StreamRun> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  const run: StreamRun = { firstTokenMs: null, arrivals: [], isComplete: false, lostChunks: options.chunks };
  let text = "";
  try {
    const events = await fetch(`${url}/api/chats/${browser.sessionId}/events`, {
      headers: { cookie: browser.cookie, accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!events.ok || !events.body) throw new Error(`the event stream answered ${events.status}`);
    await options.startGate;
    const sentAt = performance.now();
    const sent = fetch(`${url}/api/trpc/chat.send`, {
      method: "POST",
      headers: { cookie: browser.cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      // The chat view always sends the model its picker shows: here the first one the server offers.
      body: JSON.stringify({
        json: { sessionId: browser.sessionId, text: sessionPrompt(index), choice: BENCH_CHOICE },
      }),
      signal: abort.signal,
    }).then(async (response) => {
      if (!response.ok) throw new Error(`chat.send answered ${response.status}: ${await response.text()}`);
    });
    sent.catch(() => abort.abort());
    await readSse(events.body, (data) => {
      const event = parseEvent(data);
      if (event?.type === "text.delta" && event.data.text) {
        const now = performance.now();
        run.firstTokenMs ??= now - sentAt;
        text += event.data.text;
        run.arrivals.push({ at: now, chunks: event.data.text.match(CHUNK)?.length ?? 0 });
      }
      return event?.type === "turn.finished";
    });
    await sent;
  } catch (error) {
    run.error = (error as Error).message;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return finishRun(run, text, index, options.chunks);
}

/** The same answer straight from the fake provider's Anthropic endpoint (raw fetch: the floor). */
export async function streamDirect(
  anthropicBaseUrl: string,
  index: number,
  options: { chunks: number; timeoutMs: number; startGate?: Promise<void> },
): Promise<StreamRun> {
  const run: StreamRun = { firstTokenMs: null, arrivals: [], isComplete: false, lostChunks: options.chunks };
  let text = "";
  try {
    await options.startGate;
    const sentAt = performance.now();
    const response = await fetch(`${anthropicBaseUrl}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 1024,
        stream: true,
        messages: [{ role: "user", content: sessionPrompt(index) }],
      }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok || !response.body) throw new Error(`fake provider answered ${response.status}`);
    await readSse(response.body, (data) => {
      const event = JSON.parse(data) as { type: string; delta?: { text?: string } };
      const delta = event.type === "content_block_delta" ? event.delta?.text : undefined;
      if (delta) {
        const now = performance.now();
        run.firstTokenMs ??= now - sentAt;
        text += delta;
        run.arrivals.push({ at: now, chunks: delta.match(CHUNK)?.length ?? 0 });
      }
      return event.type === "message_stop";
    });
  } catch (error) {
    run.error = (error as Error).message;
  }
  return finishRun(run, text, index, options.chunks);
}
