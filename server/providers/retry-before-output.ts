// Retries a model request that failed before any output streamed, and never one that failed after.
// A failure counts as "before output" when the HTTP call failed (429, 5xx, unreachable) or the
// stream's first event of substance is an error (Anthropic `overloaded_error`, a Codex
// `response.failed` with `rate_limit_exceeded`); nothing has reached the user then, so a new attempt
// is invisible. Once a text, reasoning or tool-call part has streamed, an error is passed on as it
// is: a retry would repeat what the user already saw. Only kinds another attempt can cure are retried
// (rate limit, overload, server error, unreachable; provider-error.ts), at most `maxRetries` times,
// after the wait the provider asked for or an exponential backoff — and never when the provider asks
// for longer than `maxWaitMs` (the turn then says how long to wait instead of hanging). What leaves
// this wrapper is final: a thrown APICallError is marked not retryable, so the AI SDK's own
// `maxRetries` does not retry it again. The wait honours the request's AbortSignal.
import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { APICallError, wrapLanguageModel } from "ai";
import { setTimeout as sleep } from "node:timers/promises";

import { classifyProviderError } from "./provider-error.ts";

export type RetryPolicy = {
  maxRetries: number;
  initialDelayMs: number;
  /** A provider asking for a longer wait than this is not retried. */
  maxWaitMs: number;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, initialDelayMs: 1_000, maxWaitMs: 20_000 };

type Part = LanguageModelV4StreamPart;
type Reader = ReadableStreamDefaultReader<Part>;

/** How long to wait before attempt `attempt + 1`, or undefined when `error` is final. */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy, now = Date.now()) {
  if (attempt >= policy.maxRetries) return undefined;
  const info = classifyProviderError(error, now);
  if (!info.isRetryable) return undefined;
  if (info.retryAfterSeconds === undefined) return policy.initialDelayMs * 2 ** attempt;
  const asked = info.retryAfterSeconds * 1000;
  return asked <= policy.maxWaitMs ? asked : undefined;
}

/** Parts that carry nothing a user sees: waiting past them is still "before output". */
function isBeforeOutput(part: Part): boolean {
  switch (part.type) {
    case "stream-start":
    case "response-metadata":
    case "ping":
    case "raw":
    case "text-start":
    case "reasoning-start":
      return true;
    case "text-delta":
    case "reasoning-delta":
      return part.delta === "" && part.providerMetadata === undefined;
    default:
      return false;
  }
}

type Peeked =
  | { kind: "streaming"; buffered: Part[]; reader: Reader }
  | { kind: "failed"; buffered: Part[]; reader: Reader; error: unknown; isThrown: boolean };

/** Reads up to the first part of substance (or the first error), keeping what it read. */
async function peek(stream: ReadableStream<Part>): Promise<Peeked> {
  const reader = stream.getReader();
  const buffered: Part[] = [];
  for (;;) {
    let next: ReadableStreamReadResult<Part>;
    try {
      next = await reader.read();
    } catch (error) {
      return { kind: "failed", buffered, reader, error, isThrown: true };
    }
    if (next.done) return { kind: "streaming", buffered, reader };
    if (next.value.type === "error")
      return { kind: "failed", buffered, reader, error: next.value.error, isThrown: false };
    buffered.push(next.value);
    if (!isBeforeOutput(next.value)) return { kind: "streaming", buffered, reader };
  }
}

/** The stream as the caller would have seen it: what was peeked, then the rest. */
function replay(peeked: Peeked): ReadableStream<Part> {
  const { buffered, reader } = peeked;
  const failure = peeked.kind === "failed" ? peeked : undefined;
  return new ReadableStream<Part>({
    start(controller) {
      for (const part of buffered) controller.enqueue(part);
      if (failure?.isThrown) controller.error(failure.error);
      else if (failure) controller.enqueue({ type: "error", error: failure.error });
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The error as it leaves the wrapper: an APICallError no caller should retry again. */
function asFinal(error: unknown): unknown {
  if (!APICallError.isInstance(error) || !error.isRetryable) return error;
  const { message, url, requestBodyValues, statusCode, responseHeaders, responseBody, cause, data } = error;
  const fields = { message, url, requestBodyValues, statusCode, responseHeaders, responseBody, cause, data };
  return new APICallError({ ...fields, isRetryable: false });
}

async function streamWithRetries(
  doStream: () => PromiseLike<LanguageModelV4StreamResult>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<LanguageModelV4StreamResult> {
  const wait = policy.wait ?? ((ms: number, abort?: AbortSignal) => sleep(ms, undefined, { signal: abort }));
  for (let attempt = 0; ; attempt++) {
    let result: LanguageModelV4StreamResult;
    try {
      result = await doStream();
    } catch (error) {
      const delay = signal?.aborted ? undefined : retryDelayMs(error, attempt, policy);
      if (delay === undefined) throw asFinal(error);
      await wait(delay, signal);
      continue;
    }
    const peeked = await peek(result.stream);
    const delay =
      peeked.kind === "failed" && !signal?.aborted ? retryDelayMs(peeked.error, attempt, policy) : undefined;
    if (delay === undefined) return { ...result, stream: replay(peeked) };
    await peeked.reader.cancel().catch(() => undefined);
    await wait(delay, signal);
  }
}

/** `model` with the retry policy above on every streamed request. */
export function withRetryBeforeOutput(model: LanguageModelV4, policy: RetryPolicy = DEFAULT_RETRY_POLICY) {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapStream: ({ doStream, params }) => streamWithRetries(doStream, policy, params.abortSignal),
    },
  });
}
