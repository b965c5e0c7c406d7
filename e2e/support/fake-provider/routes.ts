// The provider endpoints of the fake (server.ts): for each, its wire format (anthropic.ts, gemini.ts,
// openai-*.ts), its path, how a request asks to stream, and for the subscription endpoints the strict
// request-shape check (subscriptions.ts), the error body they answer with, and Code Assist's
// `{ request }` / `{ response }` envelope around Gemini's format.
import { type IncomingMessage } from "node:http";

import { anthropicWire } from "./anthropic.ts";
import { geminiWire } from "./gemini.ts";
import { openaiCompatWire } from "./openai-compat.ts";
import { openaiResponsesWire } from "./openai-responses.ts";
import {
  checkClaudeCode,
  checkCodeAssist,
  checkCodex,
  type CodeAssistAccounts,
  type HttpFailure,
} from "./subscriptions.ts";
import { asRecord, asString, type SseEvent, type WireFormat } from "./wire.ts";

export interface Route {
  wire: WireFormat;
  path: RegExp;
  isStreaming(body: Record<string, unknown>, url: URL): boolean;
  /** Subscription endpoints: the request-shape check (undefined when the request is acceptable). */
  check?: (req: IncomingMessage, url: URL, body: Record<string, unknown>) => HttpFailure | undefined;
  /** Code Assist: the inner Gemini request and its path, and the `{response}` envelope per event. */
  unwrapRequest?: (body: Record<string, unknown>) => { body: Record<string, unknown>; path: string };
  wrapEvent?: (event: SseEvent) => SseEvent;
  /** The error body when it differs from the wire format's (the Codex backend's `{detail}`). */
  encodeHttpError?: (status: number, message: string, type?: string) => unknown;
}

const streamFlag = (body: Record<string, unknown>) => body.stream === true;
const codeAssistRoute = (accounts: CodeAssistAccounts): Route => ({
  wire: geminiWire,
  path: /^\/code-assist\/v1internal:streamGenerateContent$/,
  isStreaming: (_body, url) => url.searchParams.get("alt") === "sse",
  check: (req, _url, body) => checkCodeAssist(accounts, req, body),
  unwrapRequest: (body) => ({
    body: asRecord(body.request),
    path: `/models/${asString(body.model) ?? ""}:streamGenerateContent`,
  }),
  wrapEvent: (event) => ({ ...event, data: { response: event.data, traceId: "fake-trace" } }),
});
const ROUTES: Route[] = [
  { wire: anthropicWire, path: /^\/anthropic\/v1\/messages$/, isStreaming: streamFlag, check: checkClaudeCode },
  { wire: openaiResponsesWire, path: /^\/openai\/v1\/responses$/, isStreaming: streamFlag },
  {
    wire: openaiResponsesWire,
    path: /^\/chatgpt\/backend-api\/codex\/responses$/,
    isStreaming: streamFlag,
    check: checkCodex,
    encodeHttpError: (status, message, type) =>
      status === 400
        ? { detail: message }
        : status === 401
          ? { error: { message, code: "token_expired" } }
          : openaiResponsesWire.encodeHttpError(status, message, type),
  },
  {
    wire: geminiWire,
    path: /^\/google\/v1beta\/.+:(stream)?[gG]enerateContent$/,
    isStreaming: (_body, url) =>
      url.pathname.endsWith(":streamGenerateContent") && url.searchParams.get("alt") === "sse",
  },
  { wire: openaiCompatWire, path: /^\/compat\/v1\/chat\/completions$/, isStreaming: streamFlag },
];

/** Every provider endpoint the fake answers; Code Assist checks onboarding against `accounts`. */
export function providerRoutes(accounts: CodeAssistAccounts): Route[] {
  return [...ROUTES, codeAssistRoute(accounts)];
}
