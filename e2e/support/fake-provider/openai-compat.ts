// OpenAI-compatible Chat Completions wire format (POST /v1/chat/completions, stream: true) for the
// fake provider: `data: <chat.completion.chunk json>` only, a first chunk with the assistant role,
// then `delta.reasoning_content` (the de-facto field of DeepSeek / vLLM style servers),
// `delta.content`, or `delta.tool_calls` (id + name first, then argument chunks by index), a chunk
// with finish_reason stop | tool_calls, a usage chunk (`choices: []`) when the request asks for
// `stream_options.include_usage`, and `data: [DONE]`. Mid-stream errors are a `{ error }` chunk,
// without [DONE].
import { type ParsedRequest, type ScriptedReply } from "./script.ts";
import { validateOpenAICompatRequest } from "./validate-openai-compat.ts";
import {
  argsChunks,
  asRecord,
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
 * Echo parser: `messages[]` with role system | user | assistant | tool. User text is the string
 * content (or text parts) of user messages; tool results are the trailing `role: "tool"` messages
 * (tool_call_id, content), named by the assistant's earlier `tool_calls[].function.name`. Declared
 * tools are `tools[].function.name`.
 */
function parseRequest(body: Record<string, unknown>): ParsedRequest {
  const messages = records(body.messages);
  const toolNameById = new Map<string, string>();
  for (const call of messages.flatMap((message) => records(message.tool_calls))) {
    toolNameById.set(asString(call.id) ?? "", asString(asRecord(call.function).name) ?? "");
  }
  const firstTrailingResult = messages.findLastIndex((message) => message.role !== "tool") + 1;
  const toolResults = messages.slice(firstTrailingResult).map((message) => {
    const callId = asString(message.tool_call_id);
    const content = typeof message.content === "string" ? message.content : textOf(message.content);
    return { callId, name: toolNameById.get(callId ?? ""), content: stringify(content) };
  });
  return {
    model: asString(body.model) ?? "",
    lastUserText: messages
      .filter((message) => message.role === "user")
      .map((message) => textOf(message.content))
      .findLast((text) => text !== ""),
    toolResults,
    toolNames: records(body.tools).flatMap((tool) => asString(asRecord(tool.function).name) ?? []),
  };
}

function encodeReply(reply: ScriptedReply, context: EncodeContext): WireEvent[] {
  const usage = resolveUsage(reply, context);
  const base = {
    id: makeId("chatcmpl-", 29),
    object: "chat.completion.chunk",
    created: context.createdAt,
    model: context.request.model,
    system_fingerprint: null,
  };
  const chunk = (delta: Record<string, unknown>, role?: SseEvent["role"], finish_reason: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] },
    role,
  });
  const events: SseEvent[] = [chunk({ role: "assistant", content: "" })];
  let toolIndex = 0;
  for (const step of reply.steps ?? []) {
    if (step.type === "text") {
      for (const content of chunkText(step.text, step.chunkSize)) events.push(chunk({ content }, "delta"));
    } else if (step.type === "reasoning") {
      for (const text of chunkText(step.text, step.chunkSize)) events.push(chunk({ reasoning_content: text }, "delta"));
    } else {
      const index = toolIndex++;
      const id = step.id ?? makeId("call_", 24);
      events.push(
        chunk({ tool_calls: [{ index, id, type: "function", function: { name: step.name, arguments: "" } }] }),
      );
      for (const args of argsChunks(JSON.stringify(step.args ?? {}), step.chunkSize)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }, "delta"));
      }
    }
  }
  events.push(chunk({}, "finish", hasToolCall(reply) ? "tool_calls" : "stop"));
  if (asRecord(context.body.stream_options).include_usage === true) {
    const usageJson = {
      prompt_tokens: usage.input,
      completion_tokens: usage.output + usage.reasoning,
      total_tokens: usage.input + usage.output + usage.reasoning,
      completion_tokens_details: { reasoning_tokens: usage.reasoning },
    };
    events.push({ data: { ...base, choices: [], usage: usageJson } });
  }
  events.push({ data: "[DONE]" });
  return withStreamError(events, reply.error, (error) => [
    { data: { error: { message: error.message, type: error.type ?? "server_error", param: null, code: null } } },
  ]);
}

function encodeHttpError(status: number, message: string, type?: string): unknown {
  const fallback = status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type: type ?? fallback, param: null, code: null } };
}

export const openaiCompatWire: WireFormat = {
  provider: "compat",
  parseRequest,
  validateRequest: validateOpenAICompatRequest,
  encodeReply,
  encodeHttpError,
};
