// Gemini generateContent streaming wire format (POST /v1beta/models/{model}:streamGenerateContent
// ?alt=sse) for the fake provider, shaped after the recorded fixtures (shared/fixtures/
// provider-streams/google): `data: <json>` only, one GenerateContentResponse per chunk with
// candidates[0].content.parts holding text parts, thought parts (`thought: true`, the last one
// carrying the thoughtSignature), or one whole functionCall part with a thoughtSignature (Gemini
// does not stream arguments). A final empty-text chunk carries finishReason STOP; every chunk
// carries usageMetadata, modelVersion and responseId. Mid-stream errors close the socket abruptly
// unless `abrupt: false`, which sends `{ error: { code, message, status } }` as a chunk.
import { type ParsedRequest, type ScriptedReply } from "./script.ts";
import { scopedSignature } from "./signature-scope.ts";
import { validateGeminiRequest } from "./validate-gemini.ts";
import {
  asRecord,
  asString,
  chunkText,
  type EncodeContext,
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
 * Echo parser: the model comes from the URL path (`…/models/{model}:streamGenerateContent`).
 * `contents[]` have role user | model and `parts`; user text is in `{ text }` parts; tool results
 * are `functionResponse` parts (`name`, optional `id`, `response.content` or `response.error`) in
 * the last content. Declared tools are `tools[].functionDeclarations[].name`.
 */
function parseRequest(body: Record<string, unknown>, path: string): ParsedRequest {
  const contents = records(body.contents);
  const last = contents.at(-1);
  const toolResults =
    last?.role === "user"
      ? records(last.parts).flatMap((part) => {
          const call = asRecord(part.functionResponse);
          if (part.functionResponse === undefined) return [];
          const response = asRecord(call.response);
          const content = response.content ?? response.error ?? response;
          return [{ callId: asString(call.id), name: asString(call.name), content: stringify(content) }];
        })
      : [];
  return {
    model: /\/models\/([^/:]+)/.exec(path)?.[1] ?? "",
    lastUserText: contents
      .filter((content) => content.role === "user")
      .map((content) => textOf(records(content.parts).map((part) => ({ type: "text", ...part }))))
      .findLast((text) => text !== ""),
    toolResults,
    toolNames: records(body.tools).flatMap((tool) =>
      records(tool.functionDeclarations).flatMap((declaration) => asString(declaration.name) ?? []),
    ),
  };
}

function encodeReply(reply: ScriptedReply, context: EncodeContext): WireEvent[] {
  const usage = resolveUsage(reply, context);
  const responseId = makeId("", 23);
  const usageMetadata = {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output + usage.reasoning,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.input }],
    ...(usage.reasoning > 0 ? { thoughtsTokenCount: usage.reasoning } : {}),
  };
  const chunk = (parts: unknown[], role?: SseEvent["role"], extra: Record<string, unknown> = {}): SseEvent => ({
    data: {
      candidates: [{ content: { parts, role: "model" }, ...extra, index: 0 }],
      usageMetadata,
      modelVersion: context.request.model,
      responseId,
    },
    role,
  });
  const events: SseEvent[] = [];
  for (const step of reply.steps ?? []) {
    if (step.type === "text") {
      for (const text of chunkText(step.text, step.chunkSize)) events.push(chunk([{ text }], "delta"));
    } else if (step.type === "reasoning") {
      const texts = chunkText(step.text, step.chunkSize);
      const signature = step.signature ?? scopedSignature(step.text, "Cp", context.signatureScope);
      for (const [i, text] of texts.entries()) {
        const signed = i === texts.length - 1 ? { thoughtSignature: signature } : {};
        events.push(chunk([{ text, thought: true, ...signed }], "delta"));
      }
    } else {
      const args = step.args ?? {};
      const thoughtSignature =
        step.signature ?? scopedSignature(`${step.name}:${JSON.stringify(args)}`, "Cp", context.signatureScope);
      events.push(chunk([{ functionCall: { name: step.name, args }, thoughtSignature }], "delta"));
    }
  }
  events.push(chunk([{ text: "" }], "finish", { finishReason: "STOP" }));
  return withStreamError(
    events,
    reply.error,
    (error) => [{ data: { error: { code: 500, message: error.message, status: error.type ?? "INTERNAL" } } }],
    true,
  );
}

const STATUSES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

function encodeHttpError(status: number, message: string, type?: string): unknown {
  const fallback = status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  return { error: { code: status, message, status: type ?? STATUSES[status] ?? fallback } };
}

export const geminiWire: WireFormat = {
  provider: "google",
  parseRequest,
  validateRequest: validateGeminiRequest,
  encodeReply,
  encodeHttpError,
};
