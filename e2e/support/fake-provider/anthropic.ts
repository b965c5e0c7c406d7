// Anthropic Messages wire format (POST /v1/messages, stream: true) for the fake provider. Events are
// `event: <type>` + `data: <json>` in the order of the recorded fixtures (shared/fixtures/
// provider-streams/anthropic): message_start, ping, per step content_block_start / _delta / _stop
// (text_delta; thinking_delta then signature_delta; tool_use with input_json_delta, the first one
// empty), message_delta (stop_reason end_turn | tool_use, usage), message_stop. Mid-stream errors
// are `event: error`. Tool-use ids look like `toolu_01…`.
import { type ParsedRequest, type ScriptedReply } from "./script.ts";
import { scopedSignature } from "./signature-scope.ts";
import { validateAnthropicRequest } from "./validate-anthropic.ts";
import {
  argsChunks,
  asString,
  chunkText,
  type EncodeContext,
  hasToolCall,
  makeId,
  records,
  resolveUsage,
  type SseEvent,
  stringify,
  textOf,
  type WireEvent,
  type WireFormat,
  withStreamError,
} from "./wire.ts";

/**
 * Echo parser: `messages[].content` is a string or blocks. Tool results are `tool_result` blocks
 * (tool_use_id, content string | text blocks) in the last user message; their names come from the
 * assistant's earlier `tool_use` blocks. Declared tools are `tools[].name`.
 */
function parseRequest(body: Record<string, unknown>): ParsedRequest {
  const messages = records(body.messages);
  const toolNameById = new Map<string, string>();
  for (const block of messages.flatMap((message) => records(message.content))) {
    if (block.type === "tool_use") toolNameById.set(asString(block.id) ?? "", asString(block.name) ?? "");
  }
  const last = messages.at(-1);
  const toolResults =
    last?.role === "user"
      ? records(last.content)
          .filter((block) => block.type === "tool_result")
          .map((block) => {
            const callId = asString(block.tool_use_id);
            const content = typeof block.content === "string" ? block.content : textOf(block.content);
            return { callId, name: toolNameById.get(callId ?? ""), content: stringify(content) };
          })
      : [];
  const lastUserText = messages
    .filter((message) => message.role === "user")
    .map((message) => textOf(message.content, ["text"]))
    .findLast((text) => text !== "");
  return {
    model: asString(body.model) ?? "",
    lastUserText,
    toolResults,
    toolNames: records(body.tools).flatMap((tool) => asString(tool.name) ?? []),
  };
}

function encodeReply(reply: ScriptedReply, context: EncodeContext): WireEvent[] {
  const usage = resolveUsage(reply, context);
  const events: SseEvent[] = [];
  const push = (type: string, payload: Record<string, unknown> = {}, role?: SseEvent["role"]) =>
    events.push({ event: type, data: { type, ...payload }, role });
  const cacheUsage = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

  push("message_start", {
    message: {
      model: context.request.model,
      id: makeId("msg_01", 22),
      type: "message",
      role: "assistant",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, ...cacheUsage, output_tokens: 1, service_tier: "standard" },
    },
  });
  push("ping");
  for (const [index, step] of (reply.steps ?? []).entries()) {
    const delta = (payload: Record<string, unknown>, role?: SseEvent["role"]) =>
      push("content_block_delta", { index, delta: payload }, role);
    if (step.type === "text") {
      push("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const text of chunkText(step.text, step.chunkSize)) delta({ type: "text_delta", text }, "delta");
    } else if (step.type === "reasoning") {
      push("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const thinking of chunkText(step.text, step.chunkSize)) delta({ type: "thinking_delta", thinking }, "delta");
      delta({
        type: "signature_delta",
        signature: step.signature ?? scopedSignature(step.text, "Eq", context.signatureScope),
      });
    } else {
      const content_block = { type: "tool_use", id: step.id ?? makeId("toolu_01", 22), name: step.name, input: {} };
      push("content_block_start", { index, content_block });
      delta({ type: "input_json_delta", partial_json: "" });
      for (const partial_json of argsChunks(JSON.stringify(step.args ?? {}), step.chunkSize)) {
        delta({ type: "input_json_delta", partial_json }, "delta");
      }
    }
    push("content_block_stop", { index });
  }
  push(
    "message_delta",
    {
      delta: { stop_reason: hasToolCall(reply) ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { input_tokens: usage.input, ...cacheUsage, output_tokens: usage.output + usage.reasoning },
    },
    "finish",
  );
  push("message_stop");
  return withStreamError(events, reply.error, (error) => [
    { event: "error", data: { type: "error", error: { type: error.type ?? "api_error", message: error.message } } },
  ]);
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

function encodeHttpError(status: number, message: string, type?: string): unknown {
  const fallback = status >= 500 ? "api_error" : "invalid_request_error";
  return { type: "error", error: { type: type ?? ERROR_TYPES[status] ?? fallback, message } };
}

export const anthropicWire: WireFormat = {
  provider: "anthropic",
  parseRequest,
  validateRequest: validateAnthropicRequest,
  encodeReply,
  encodeHttpError,
};
