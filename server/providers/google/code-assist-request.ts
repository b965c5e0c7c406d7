// Shapes an AI SDK Gemini request for Code Assist: the SDK's
// `…/models/<model>:streamGenerateContent?alt=sse` (or `:generateContent`) goes to
// `<CODE_ASSIST_BASE_URL>/v1internal:<method>` with the body wrapped as
// `{ model, project, user_prompt_id, request: <original body> }` and bearer auth instead of the API
// key header; the answer is unwrapped from `{ response: … }` back to the object the SDK expects, per
// SSE `data:` line (or once, for the non-streaming call).
import { randomUUID } from "node:crypto";

import type { StoredTokens } from "../subscriptions/account-tokens.ts";
import type { ShapedRequest } from "../subscriptions/authorized-fetch.ts";
import { codeAssistUrl, type CodeAssistConfig, GEMINI_CLI_USER_AGENT } from "./code-assist-onboarding.ts";

const MODEL_CALL = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

function unwrap(value: unknown): unknown {
  return typeof value === "object" && value !== null && "response" in value ? value.response : value;
}

function unwrapLine(line: string): string {
  if (!line.startsWith("data:")) return line;
  try {
    return `data: ${JSON.stringify(unwrap(JSON.parse(line.slice(5).trim())))}`;
  } catch {
    return line;
  }
}

/** Rewrites every SSE `data:` line from `{response: X}` to `X`, across chunk boundaries. */
export function unwrapCodeAssistStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let buffered = "";
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffered += decoder.decode(chunk, { stream: true });
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.map(unwrapLine).join("\n") + "\n"));
      },
      flush(controller) {
        buffered += decoder.decode();
        if (buffered !== "") controller.enqueue(encoder.encode(unwrapLine(buffered)));
      },
    }),
  );
}

async function unwrapResponse(response: Response, isStream: boolean): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  const init = { status: response.status, statusText: response.statusText, headers };
  if (isStream) return response.body ? new Response(unwrapCodeAssistStream(response.body), init) : response;
  return new Response(JSON.stringify(unwrap(await response.json())), init);
}

export function shapeCodeAssistRequest(
  url: string,
  init: RequestInit,
  tokens: StoredTokens,
  context: { config: CodeAssistConfig; project: string },
): ShapedRequest {
  const headers = new Headers(init.headers);
  headers.delete("x-goog-api-key");
  headers.set("authorization", `Bearer ${tokens.accessToken}`);
  headers.set("user-agent", GEMINI_CLI_USER_AGENT);
  const source = new URL(url);
  const match = MODEL_CALL.exec(source.pathname);
  if (!match || typeof init.body !== "string") return { url, init: { ...init, headers } };
  const [, model, method] = match as unknown as [string, string, string];
  const isStream = method === "streamGenerateContent";
  const target = new URL(codeAssistUrl(context.config, `:${method}`));
  if (isStream) target.searchParams.set("alt", "sse");
  const body = JSON.stringify({
    model,
    project: context.project,
    user_prompt_id: randomUUID(),
    request: JSON.parse(init.body) as unknown,
  });
  return {
    url: target.toString(),
    init: { ...init, headers, body },
    transformResponse: (response) => unwrapResponse(response, isStream),
  };
}
