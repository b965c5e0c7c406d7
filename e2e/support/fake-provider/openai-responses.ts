// OpenAI Responses wire format (POST /v1/responses, stream: true) for the fake provider, shaped after
// the recorded fixtures (shared/fixtures/provider-streams/openai): response.created, .in_progress,
// then one output item per step (message: content_part + output_text.delta/.done; reasoning:
// reasoning_summary_part + reasoning_summary_text.delta/.done, with encrypted_content only when the
// request's `include` asks for reasoning.encrypted_content; function_call: function_call_arguments
// .delta/.done), each closed by output_item.done, and response.completed with usage. Every event has
// a sequence_number. Mid-stream errors are an `error` event followed by response.failed.
import { type ParsedRequest, type ScriptedReply } from "./script.ts";
import { scopedSignature } from "./signature-scope.ts";
import { validateOpenAIResponsesRequest } from "./validate-openai-responses.ts";
import {
  argsChunks,
  asArray,
  asString,
  chunkText,
  type EncodeContext,
  makeHexId,
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
 * Echo parser: `input` is a string or a list of items. User text is in `{ role: "user", content }`
 * items; tool results are trailing `function_call_output` items (call_id, output string | input_text
 * parts) whose names come from the matching `function_call` items. Declared tools are
 * `tools[].name` of type "function".
 */
function parseRequest(body: Record<string, unknown>): ParsedRequest {
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : records(body.input);
  const toolNameById = new Map<string, string>();
  for (const item of items) {
    if (item.type === "function_call") toolNameById.set(asString(item.call_id) ?? "", asString(item.name) ?? "");
  }
  const firstTrailingOutput = items.findLastIndex((item) => item.type !== "function_call_output") + 1;
  const toolResults = items.slice(firstTrailingOutput).map((item) => {
    const callId = asString(item.call_id);
    const content = typeof item.output === "string" ? item.output : textOf(item.output);
    return { callId, name: toolNameById.get(callId ?? ""), content: stringify(content) };
  });
  return {
    model: asString(body.model) ?? "",
    lastUserText: items
      .filter((item) => item.role === "user")
      .map((item) => textOf(item.content))
      .findLast((text) => text !== ""),
    toolResults,
    toolNames: records(body.tools).flatMap((tool) => (tool.type === "function" ? (asString(tool.name) ?? []) : [])),
  };
}

function encodeReply(reply: ScriptedReply, context: EncodeContext): WireEvent[] {
  const usage = resolveUsage(reply, context);
  const withEncrypted = asArray(context.body.include).includes("reasoning.encrypted_content");
  const base = {
    id: makeHexId("resp_", 50),
    object: "response",
    created_at: context.createdAt,
    model: context.request.model,
    store: context.body.store ?? true,
    error: null,
    incomplete_details: null,
    parallel_tool_calls: true,
    tool_choice: "auto",
  };
  const output: Record<string, unknown>[] = [];
  const events: SseEvent[] = [];
  const push = (type: string, payload: Record<string, unknown>, role?: SseEvent["role"]) =>
    events.push({ event: type, data: { type, ...payload }, role });

  push("response.created", { response: { ...base, status: "in_progress", output: [], usage: null } });
  push("response.in_progress", { response: { ...base, status: "in_progress", output: [], usage: null } });
  for (const [output_index, step] of (reply.steps ?? []).entries()) {
    const at = (item_id: string) => ({ item_id, output_index });
    let done: Record<string, unknown>;
    if (step.type === "text") {
      const id = makeHexId("msg_", 50);
      const part = { type: "output_text", annotations: [], logprobs: [] };
      push("response.output_item.added", {
        output_index,
        item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
      });
      push("response.content_part.added", { ...at(id), content_index: 0, part: { ...part, text: "" } });
      for (const delta of chunkText(step.text, step.chunkSize)) {
        push("response.output_text.delta", { ...at(id), content_index: 0, delta, logprobs: [] }, "delta");
      }
      push("response.output_text.done", { ...at(id), content_index: 0, text: step.text, logprobs: [] });
      push("response.content_part.done", { ...at(id), content_index: 0, part: { ...part, text: step.text } });
      done = { id, type: "message", status: "completed", content: [{ ...part, text: step.text }], role: "assistant" };
    } else if (step.type === "reasoning") {
      const id = makeHexId("rs_", 50);
      const encrypted = withEncrypted
        ? { encrypted_content: step.signature ?? scopedSignature(step.text, "gAAAAA", context.signatureScope) }
        : {};
      const summary = { ...at(id), summary_index: 0 };
      push("response.output_item.added", { output_index, item: { id, type: "reasoning", ...encrypted, summary: [] } });
      push("response.reasoning_summary_part.added", { ...summary, part: { type: "summary_text", text: "" } });
      for (const delta of chunkText(step.text, step.chunkSize)) {
        push("response.reasoning_summary_text.delta", { ...summary, delta }, "delta");
      }
      push("response.reasoning_summary_text.done", { ...summary, text: step.text });
      push("response.reasoning_summary_part.done", { ...summary, part: { type: "summary_text", text: step.text } });
      done = { id, type: "reasoning", ...encrypted, summary: [{ type: "summary_text", text: step.text }] };
    } else {
      const id = makeHexId("fc_", 50);
      const call = { id, type: "function_call", call_id: step.id ?? makeId("call_", 24), name: step.name };
      const args = JSON.stringify(step.args ?? {});
      push("response.output_item.added", { output_index, item: { ...call, status: "in_progress", arguments: "" } });
      for (const delta of argsChunks(args, step.chunkSize)) {
        push("response.function_call_arguments.delta", { ...at(id), delta }, "delta");
      }
      push("response.function_call_arguments.done", { ...at(id), arguments: args });
      done = { ...call, status: "completed", arguments: args };
    }
    push("response.output_item.done", { output_index, item: done });
    output.push(done);
  }
  const usageJson = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output + usage.reasoning,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output + usage.reasoning,
  };
  push("response.completed", { response: { ...base, status: "completed", output, usage: usageJson } }, "finish");

  const withError = withStreamError(events, reply.error, (error) => {
    const code = error.type ?? "server_error";
    return [
      { event: "error", data: { type: "error", error: { type: code, code, message: error.message, param: null } } },
      {
        event: "response.failed",
        data: {
          type: "response.failed",
          response: { ...base, status: "failed", error: { code, message: error.message }, output: [], usage: null },
        },
      },
    ];
  });
  return numberEvents(withError);
}

/** Adds sequence_number (0, 1, …) to every event, after the stream was cut by a scripted error. */
function numberEvents(events: WireEvent[]): WireEvent[] {
  let sequence = 0;
  return events.map((event) =>
    "abruptClose" in event
      ? event
      : { ...event, data: { ...(event.data as Record<string, unknown>), sequence_number: sequence++ } },
  );
}

const ERROR_TYPES: Record<number, string> = {
  401: "invalid_request_error",
  403: "invalid_request_error",
  404: "invalid_request_error",
  429: "rate_limit_exceeded",
};

function encodeHttpError(status: number, message: string, type?: string): unknown {
  const fallback = status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type: type ?? ERROR_TYPES[status] ?? fallback, param: null, code: type ?? null } };
}

export const openaiResponsesWire: WireFormat = {
  provider: "openai",
  parseRequest,
  validateRequest: validateOpenAIResponsesRequest,
  encodeReply,
  encodeHttpError,
};
