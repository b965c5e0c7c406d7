// What every wire-format module of the fake provider shares: the WireFormat contract (parse a request
// body into a ParsedRequest, encode a ScriptedReply as a list of SSE events, shape an HTTP error body),
// SSE framing, where a mid-stream error cuts the stream, chunking, ids, fake signatures, usage
// estimates, and small readers for untrusted JSON. Encoders are pure: the server does all I/O.
import { createHash, randomBytes } from "node:crypto";

import { type MidStreamError, type ParsedRequest, type ProviderId, type ScriptedReply } from "./script.ts";

/** One SSE event. `role` marks content chunks (counted for mid-stream errors) and the finish event. */
export interface SseEvent {
  event?: string;
  data: unknown;
  role?: "delta" | "finish";
}
/** The server closes the socket here without ending the HTTP response (a dropped connection). */
export interface AbruptClose {
  abruptClose: true;
}
export type WireEvent = SseEvent | AbruptClose;

export interface EncodeContext {
  /** The request body as received (provider-specific flags such as OpenAI's `include`). */
  body: Record<string, unknown>;
  request: ParsedRequest;
  /** Size of the raw request body, for the input-token estimate. */
  requestBytes: number;
  /** Seconds since the epoch, for `created` / `created_at` fields. */
  createdAt: number;
  /** The credential scope of the request (signatureScopeOf); generated signatures are bound to it. */
  signatureScope?: string;
}

export interface WireFormat {
  provider: ProviderId;
  parseRequest(body: Record<string, unknown>, path: string): ParsedRequest;
  /** The first reason the real API would refuse this body with a 400 (validate-*.ts), or undefined. */
  validateRequest(body: Record<string, unknown>): string | undefined;
  encodeReply(reply: ScriptedReply, context: EncodeContext): WireEvent[];
  encodeHttpError(status: number, message: string, type?: string): unknown;
}

export function formatSse(event: SseEvent): string {
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${data}\n\n`;
}

/**
 * Cuts `events` where the scripted mid-stream error strikes: before the content chunk numbered
 * `midStreamAfterChunks` (0-based), or before the finish event when the reply has fewer chunks.
 */
export function withStreamError(
  events: SseEvent[],
  error: ScriptedReply["error"],
  errorEvents: (error: MidStreamError) => SseEvent[],
  abruptByDefault = false,
): WireEvent[] {
  if (error === undefined || !("midStreamAfterChunks" in error)) return events;
  let deltas = 0;
  let cut = events.length;
  for (const [index, event] of events.entries()) {
    if (event.role === "finish" || (event.role === "delta" && deltas++ === error.midStreamAfterChunks)) {
      cut = index;
      break;
    }
  }
  const tail: WireEvent[] = (error.abrupt ?? abruptByDefault) ? [{ abruptClose: true }] : errorEvents(error);
  return [...events.slice(0, cut), ...tail];
}

/** Word-boundary chunks (leading whitespace kept, like real streams) or fixed-size ones. */
export function chunkText(text: string, size?: number): string[] {
  if (size !== undefined) {
    const chars = Array.from(text);
    const chunks: string[] = [];
    for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(""));
    return chunks;
  }
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Tool arguments stream as JSON text; 12 characters per chunk unless the step says otherwise. */
export const argsChunks = (json: string, size?: number) => chunkText(json, size ?? 12);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export function makeId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (b) => BASE62[b % 62]).join("");
}
export const makeHexId = (prefix: string, length: number) =>
  prefix +
  randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);

/** A deterministic stand-in for an opaque provider signature over `seed`. */
export function fakeSignature(seed: string, prefix = ""): string {
  return `${prefix}${createHash("sha256").update(`fake-signature:${seed}`).digest("base64")}`;
}

export interface ResolvedUsage {
  input: number;
  output: number;
  reasoning: number;
}
const estimateTokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

export function resolveUsage(reply: ScriptedReply, context: EncodeContext): ResolvedUsage {
  let outputChars = 0;
  let reasoningChars = 0;
  for (const step of reply.steps ?? []) {
    if (step.type === "reasoning") reasoningChars += step.text.length;
    else outputChars += step.type === "text" ? step.text.length : JSON.stringify(step.args ?? {}).length;
  }
  return {
    input: reply.usage?.inputTokens ?? estimateTokens(context.requestBytes),
    output: reply.usage?.outputTokens ?? estimateTokens(outputChars),
    reasoning: reply.usage?.reasoningTokens ?? (reasoningChars === 0 ? 0 : estimateTokens(reasoningChars)),
  };
}

export const hasToolCall = (reply: ScriptedReply) => (reply.steps ?? []).some((step) => step.type === "tool-call");

// Readers for request bodies, which are untrusted JSON.
export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
export const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const records = (value: unknown) => asArray(value).map(asRecord);

/** Text of a message content that is a string or an array of blocks with `text` (of the given types). */
export function textOf(content: unknown, types: string[] = ["text", "input_text", "output_text"]): string {
  if (typeof content === "string") return content;
  return records(content)
    .filter((block) => types.includes(asString(block.type) ?? "") && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("");
}

/** A tool result's content as text: strings as-is, anything else as JSON. */
export const stringify = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value ?? null));
