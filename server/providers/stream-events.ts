// Decodes the parts of one model request (model-call.ts, the AI SDK 7 single-call stream) into canonical StreamEvents. Providers put
// their opaque data on different parts of a text or reasoning block: Anthropic sends the thinking
// `signature` on the last (empty) reasoning-delta, Gemini sends `thoughtSignature` on text-deltas,
// OpenAI sends the final `reasoningEncryptedContent` on reasoning-end. Two ways to decode:
// - With a StreamDecodeState shared by all parts of one stream (decodeModelStream does this): each
//   block ends with exactly one text-end / reasoning-end carrying the last provider data seen on the
//   block, as the AI SDK itself merges it.
// - Without state (`toStreamEvents(part, provider)`): a delta that carries provider data is followed
//   at once by an end event carrying it, and the block's own end still follows. A consumer must
//   treat an end with nothing open as a no-op that only updates providerData when it has some.
// providerData is the object under the provider's own key (provider-keys.ts), tagged with the
// provider and, when given, the request's origin (account + endpoint, origin.ts), so it is only
// ever sent back to the same account and endpoint. Error events carry a message safe to show a user
// (safe-error.ts).
import type { ProviderMetadata } from "ai";

import type { JsonValue, ProviderData, ProviderId, ProviderOrigin, StreamEvent } from "../core/canonical.ts";
import type { ModelCallPart } from "./model-call.ts";
import { sdkProviderKey } from "./provider-keys.ts";
import { safeErrorMessage } from "./safe-error.ts";

export type StreamDecodeState = { blockMetadata: Map<string, ProviderMetadata> };

type Part = ModelCallPart;
type BlockKind = "text" | "reasoning";

export function createStreamDecodeState(): StreamDecodeState {
  return { blockMetadata: new Map() };
}

/** Which provider decodes the stream, and the origin its data is tagged with. */
type Source = { provider: ProviderId; origin?: ProviderOrigin };

function toProviderData(source: Source, metadata: ProviderMetadata | undefined): ProviderData | undefined {
  const data = metadata?.[sdkProviderKey(source.provider)];
  if (data === undefined) return undefined;
  const copy = JSON.parse(JSON.stringify(data)) as Record<string, JsonValue>;
  return { provider: source.provider, data: copy, ...(source.origin && { origin: source.origin }) };
}

function endEvent(kind: BlockKind, providerData: ProviderData | undefined): StreamEvent {
  return { type: kind === "text" ? "text-end" : "reasoning-end", ...(providerData && { providerData }) };
}

type BlockPart = { id: string; providerMetadata?: ProviderMetadata };

function decodeStart(kind: BlockKind, part: BlockPart, state: StreamDecodeState | undefined): StreamEvent[] {
  if (state && part.providerMetadata) state.blockMetadata.set(`${kind}:${part.id}`, part.providerMetadata);
  return [];
}

function decodeDelta(kind: BlockKind, part: BlockPart & { text: string }, source: Source, state?: StreamDecodeState) {
  const events: StreamEvent[] = [];
  if (part.text !== "") events.push({ type: kind === "text" ? "text-delta" : "reasoning-delta", text: part.text });
  if (state && part.providerMetadata) state.blockMetadata.set(`${kind}:${part.id}`, part.providerMetadata);
  const providerData = state ? undefined : toProviderData(source, part.providerMetadata);
  if (providerData) events.push(endEvent(kind, providerData));
  return events;
}

function decodeEnd(kind: BlockKind, part: BlockPart, source: Source, state?: StreamDecodeState): StreamEvent[] {
  const key = `${kind}:${part.id}`;
  const metadata = part.providerMetadata ?? state?.blockMetadata.get(key);
  state?.blockMetadata.delete(key);
  return [endEvent(kind, toProviderData(source, metadata))];
}

function isJsonObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The call's arguments: an object as given, `{}` for empty input, undefined when unusable. */
function toolArguments(input: unknown): Record<string, JsonValue> | undefined {
  if (input === undefined || input === null) return {};
  if (isJsonObject(input)) return input;
  if (typeof input !== "string") return undefined;
  if (input.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function decodeToolCall(part: Extract<Part, { type: "tool-call" }>, source: Source): StreamEvent[] {
  if (part.providerExecuted) return [];
  const args = toolArguments(part.input);
  if (!args) {
    return [
      { type: "error", message: `The model called "${part.toolName}" with arguments that are not a JSON object.` },
    ];
  }
  const providerData = toProviderData(source, part.providerMetadata);
  const call = { providerCallId: part.toolCallId, exposedName: part.toolName, args };
  return [{ type: "tool-call", ...call, ...(providerData && { providerData }) }];
}

function decodeFinish(part: Extract<Part, { type: "model-call-end" }>): StreamEvent {
  const { inputTokens, outputTokens } = part.usage;
  const usage = {
    ...(inputTokens !== undefined && { inputTokens }),
    ...(outputTokens !== undefined && { outputTokens }),
  };
  return { type: "finish", finishReason: part.finishReason, usage };
}

/**
 * The canonical events for one part of a model stream. Pass the same `state` for every part of one stream
 * (never across streams), or none for stateless decoding (see the module comment); `origin` tags
 * the provider data (absent: untagged, as rows stored before origins). Parts with no
 * canonical meaning (call start, response metadata, tool-input deltas, sources, the SDK's own
 * tool-error for an invalid call) give no events. A call whose arguments are not a JSON object becomes an
 * error event, so it is never run with made-up arguments.
 */
export function toStreamEvents(
  part: Part,
  provider: ProviderId,
  state?: StreamDecodeState,
  origin?: ProviderOrigin,
): StreamEvent[] {
  const source: Source = { provider, ...(origin && { origin }) };
  switch (part.type) {
    case "text-start":
    case "reasoning-start":
      return decodeStart(part.type === "text-start" ? "text" : "reasoning", part, state);
    case "text-delta":
    case "reasoning-delta":
      return decodeDelta(part.type === "text-delta" ? "text" : "reasoning", part, source, state);
    case "text-end":
    case "reasoning-end":
      return decodeEnd(part.type === "text-end" ? "text" : "reasoning", part, source, state);
    case "tool-call":
      return decodeToolCall(part, source);
    case "model-call-end":
      return [decodeFinish(part)];
    case "error":
      return [{ type: "error", message: safeErrorMessage(part.error) }];
    default:
      return [];
  }
}

/** Decodes one whole request's stream with its own state: `for await (const event of decodeModelStream(...))`. */
export async function* decodeModelStream(
  parts: AsyncIterable<Part>,
  provider: ProviderId,
  origin?: ProviderOrigin,
): AsyncGenerator<StreamEvent, void, undefined> {
  const state = createStreamDecodeState();
  for await (const part of parts) yield* toStreamEvents(part, provider, state, origin);
}
