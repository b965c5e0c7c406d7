// Renders a canonical transcript and a tool snapshot into the AI SDK request for one provider. Pure:
// no I/O, clock, env or randomness, so the same input always gives the same request. What depends
// on the snapshot alone (tool declarations, names) is memoised by the snapshot's tool array
// (tool-declarations.ts), so a request of a known revision only maps the transcript.
// Invariants:
// - Tools are declared on every request (follow-ups too), keyed by exposedName; `toolNames` lists
//   exactly what the model can call (exposed names; canonical names in the text convention).
// - Each assistant message is followed by ONE tool message with its results in call order; a tool
//   call without a result is dropped (see pair-tool-results.ts). Adjacent user messages are merged.
// - A failed result carries the canonical `{error: {code, message}}` once, in the provider's native
//   form (error-output.ts).
// - Call ids: the provider's own id when the call came from this provider, else the canonical id;
//   results always reuse the id of their call. History calls use the snapshot's exposed name, or
//   exposeToolName(canonical) for a tool no longer in the snapshot.
// - providerData and the provider's own call ids go back (as part providerOptions / tool-call ids)
//   only to the provider, account and endpoint that produced them (origin.ts): a request's `origin`
//   defaults to the server-wide configuration, and rows without an origin go back only there.
//   Reasoning is sent only with its producer's providerData (so never to another provider or
//   account, never as text, and not to OpenAI models without reasoning).
// - Gemini only: a user message right after tool results (a turn cut off between its tool round and
//   its answer) gets a placeholder model turn in between, as gemini-cli does (its
//   INTERRUPTED_RESPONSE_PLACEHOLDER): Gemini refuses two user turns in a row, and folding the text
//   into the functionResponse turn makes the model read it as part of the tool result.
// - Gemini only: every functionCall carries a thought signature, its own or Google's documented
//   placeholder for calls Gemini did not make (google/thought-signatures.ts).
// - With nativeTools false, or when no tool is declared (Anthropic rejects tool_use blocks in a
//   request without tools), tool history is rendered as text in the <tool_use> convention.
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import type { JSONValue, ModelMessage, Tool } from "ai";

import type {
  AssistantPart,
  ProviderData,
  ProviderId,
  ProviderOrigin,
  ToolCallPart,
  ToolResultPart,
  ToolSnapshot,
  ToolSpec,
  Transcript,
} from "../core/canonical.ts";
import { errorOutputValue } from "./error-output.ts";
import { signFunctionCalls } from "./google/thought-signatures.ts";
import { isSameOrigin, originOf } from "./origin.ts";
import { pairToolResults, type PairedCall, type PairedTurn } from "./pair-tool-results.ts";
import { sdkProviderKey } from "./provider-keys.ts";
import { describeToolsForPrompt, toolCallAsText, toolResultAsText } from "./text-tools.ts";
import { declareTools } from "./tool-declarations.ts";
import { exposeToolName } from "../core/tool-names.ts";

export type RenderInput = {
  provider: ProviderId;
  modelId: string;
  transcript: Transcript;
  snapshot: ToolSnapshot;
  isFollowUp: boolean;
  nativeTools?: boolean;
  /** The account and endpoint this request goes to; default: the server-wide configuration. */
  origin?: ProviderOrigin;
};

/** What streamText receives: spread it as `streamText({ model, ...call.options, abortSignal })`. */
export type StreamTextRequest = {
  instructions?: string;
  messages: ModelMessage[];
  tools?: Record<string, Tool>;
  providerOptions: ProviderOptions;
};

export type RenderedRequest = {
  messages: ModelMessage[];
  system?: string;
  tools: Record<string, Tool>;
  providerOptions: ProviderOptions;
  toolNames: string[];
  options: StreamTextRequest;
};

type Context = {
  provider: ProviderId;
  origin: ProviderOrigin;
  exposedNames: ReadonlyMap<string, string>;
  toolsAsText: boolean;
  /** False for OpenAI models without reasoning, which reject echoed reasoning items. */
  canEchoReasoning: boolean;
};
type AssistantContent = Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>;
type ToolOutput = Extract<
  Extract<ModelMessage, { role: "tool" }>["content"][number],
  { type: "tool-result" }
>["output"];

/** Reasoning models of the Responses API; only they accept `include: ["reasoning.encrypted_content"]`. */
function isOpenAIReasoningModel(modelId: string): boolean {
  return /^(o\d|gpt-5|gpt-[6-9]|codex)/.test(modelId) && !/-chat(-|$)/.test(modelId);
}

function requestProviderOptions(input: RenderInput): ProviderOptions {
  if (input.provider !== "openai") return {};
  return {
    openai: {
      store: false,
      ...(isOpenAIReasoningModel(input.modelId) && { include: ["reasoning.encrypted_content"] }),
      ...(input.isFollowUp && { parallelToolCalls: false }),
    },
  };
}

const exposedNamesOf = new WeakMap<readonly ToolSpec[], ReadonlyMap<string, string>>();

/** Canonical -> exposed name of the snapshot's tools, once per snapshot tool array (see tool-declarations.ts). */
function exposedNameMap(tools: readonly ToolSpec[]): ReadonlyMap<string, string> {
  let names = exposedNamesOf.get(tools);
  if (!names) {
    names = new Map(tools.map((spec) => [spec.canonicalName, spec.exposedName]));
    exposedNamesOf.set(tools, names);
  }
  return names;
}

function partOptions(ctx: Context, data: ProviderData | undefined) {
  if (!data || data.provider !== ctx.provider || !isSameOrigin(data.origin, ctx.origin)) return undefined;
  return { providerOptions: { [sdkProviderKey(ctx.provider)]: data.data as Record<string, JSONValue> } };
}

function callId(ctx: Context, call: ToolCallPart): string {
  const native = call.providerCallId;
  return native?.provider === ctx.provider && isSameOrigin(native.origin, ctx.origin) ? native.id : call.id;
}

/** The rendered ids of the calls in `parts` that this provider, account and endpoint made. */
function ownCallIds(ctx: Context, parts: AssistantPart[]): Set<string> {
  return new Set(
    parts.flatMap((part) =>
      part.type === "tool-call" &&
      part.providerCallId?.provider === ctx.provider &&
      isSameOrigin(part.providerCallId.origin, ctx.origin)
        ? [part.providerCallId.id]
        : [],
    ),
  );
}

function exposedName(ctx: Context, canonicalName: string): string {
  return ctx.exposedNames.get(canonicalName) ?? exposeToolName(canonicalName);
}

function renderAssistantPart(ctx: Context, part: AssistantPart): AssistantContent {
  const options = partOptions(ctx, part.providerData);
  switch (part.type) {
    case "text":
      if (part.text === "" && !(options && ctx.provider === "google")) return [];
      return [{ type: "text", text: part.text, ...options }];
    case "reasoning":
      return options && ctx.canEchoReasoning ? [{ type: "reasoning", text: part.text, ...options }] : [];
    case "tool-call":
      if (ctx.toolsAsText) return [{ type: "text", text: toolCallAsText(part) }];
      return [
        {
          type: "tool-call",
          toolCallId: callId(ctx, part),
          toolName: exposedName(ctx, part.name),
          input: part.args,
          ...options,
        },
      ];
  }
}

function toolOutput(ctx: Context, result: ToolResultPart): ToolOutput {
  if (result.isError) return { type: "error-json", value: errorOutputValue(ctx.provider, result.output) };
  const value = result.output as JSONValue;
  return typeof value === "string" ? { type: "text", value } : { type: "json", value };
}

function renderResults(ctx: Context, results: PairedCall[]): ModelMessage[] {
  if (results.length === 0) return [];
  if (ctx.toolsAsText) {
    const text = results.map(({ call, result }) => toolResultAsText(call, result)).join("\n");
    return [{ role: "user", content: [{ type: "text", text }] }];
  }
  const content = results.map(({ call, result }) => ({
    type: "tool-result" as const,
    toolCallId: callId(ctx, call),
    toolName: exposedName(ctx, call.name),
    output: toolOutput(ctx, result),
  }));
  return [{ role: "tool", content }];
}

/** Joins adjacent text parts without provider data with a newline (text-rendered calls read as lines). */
function joinPlainText(content: AssistantContent): AssistantContent {
  const joined: AssistantContent = [];
  for (const part of content) {
    const previous = joined.at(-1);
    if (part.type === "text" && !part.providerOptions && previous?.type === "text" && !previous.providerOptions) {
      joined[joined.length - 1] = { type: "text", text: `${previous.text}\n${part.text}` };
    } else {
      joined.push(part);
    }
  }
  return joined;
}

function renderTurn(ctx: Context, turn: PairedTurn): ModelMessage[] {
  if (turn.role === "user") {
    return [{ role: "user", content: turn.parts.map((part) => ({ type: "text" as const, text: part.text })) }];
  }
  const rendered = joinPlainText(turn.parts.flatMap((part) => renderAssistantPart(ctx, part)));
  const content = ctx.provider === "google" ? signFunctionCalls(rendered, ownCallIds(ctx, turn.parts)) : rendered;
  const assistant: ModelMessage[] = content.length > 0 ? [{ role: "assistant", content }] : [];
  return [...assistant, ...renderResults(ctx, turn.results)];
}

/** Merges adjacent user messages (a dropped assistant turn or text-rendered results can leave two). */
function mergeUserMessages(messages: ModelMessage[]): ModelMessage[] {
  const merged: ModelMessage[] = [];
  for (const message of messages) {
    const previous = merged.at(-1);
    if (message.role === "user" && previous?.role === "user" && Array.isArray(previous.content)) {
      const content =
        typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      merged[merged.length - 1] = { role: "user", content: [...previous.content, ...content] };
    } else {
      merged.push(message);
    }
  }
  return merged;
}

/** What Gemini is shown as its own turn when a turn ended after its tool results (see the module comment). */
export const INTERRUPTED_RESPONSE_PLACEHOLDER = "[The previous response was interrupted before it completed.]";

/** Gemini: a placeholder model turn between tool results and a user message that follows them directly. */
function bridgeInterruptedRounds(messages: ModelMessage[]): ModelMessage[] {
  return messages.flatMap((message, index): ModelMessage[] =>
    message.role === "user" && messages[index - 1]?.role === "tool"
      ? [{ role: "assistant", content: [{ type: "text", text: INTERRUPTED_RESPONSE_PLACEHOLDER }] }, message]
      : [message],
  );
}

function systemPrompt(transcript: Transcript, textTools: string): string | undefined {
  const sections = [transcript.system?.trim(), textTools].filter((section) => !!section);
  return sections.length > 0 ? sections.join("\n\n") : undefined;
}

/** The AI SDK request for one model call; see the module comment for the invariants. */
export function renderRequest(input: RenderInput): RenderedRequest {
  const { provider, transcript, snapshot } = input;
  const nativeTools = input.nativeTools !== false;
  const toolsAsText = !nativeTools || snapshot.tools.length === 0;
  const exposedNames = exposedNameMap(snapshot.tools);
  const canEchoReasoning = provider !== "openai" || isOpenAIReasoningModel(input.modelId);
  const origin = input.origin ?? originOf(provider, null);
  const ctx: Context = { provider, origin, exposedNames, toolsAsText, canEchoReasoning };
  const merged = mergeUserMessages(pairToolResults(transcript.messages).flatMap((turn) => renderTurn(ctx, turn)));
  const messages = provider === "google" ? bridgeInterruptedRounds(merged) : merged;
  const declared = nativeTools ? declareTools(snapshot.tools, provider) : null;
  const tools = declared?.tools ?? {};
  const system = systemPrompt(transcript, nativeTools ? "" : describeToolsForPrompt(snapshot.tools));
  const providerOptions = requestProviderOptions(input);
  const toolNames = declared ? [...declared.names] : snapshot.tools.map(({ canonicalName }) => canonicalName);
  return {
    messages,
    ...(system !== undefined && { system }),
    tools,
    providerOptions,
    toolNames,
    options: {
      ...(system !== undefined && { instructions: system }),
      messages,
      ...(declared && declared.names.length > 0 && { tools }),
      providerOptions,
    },
  };
}
