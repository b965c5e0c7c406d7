// Test helpers for the provider tests: replay the recorded provider streams in
// e2e/fixtures/provider-streams (see SOURCES.md there) as real SSE bodies, a fetch that
// records every request body the AI SDK sends, and sending a rendered request through the real AI
// SDK provider to read its wire body (checked by the fake provider's strict validators). Only tests
// import this file.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import type { LanguageModel } from "ai";

import { validateAnthropicRequest } from "../fake-provider/validate-anthropic.ts";
import { validateGeminiRequest } from "../fake-provider/validate-gemini.ts";
import { validateOpenAICompatRequest } from "../fake-provider/validate-openai-compat.ts";
import { validateOpenAIResponsesRequest } from "../fake-provider/validate-openai-responses.ts";
import type { ProviderId } from "../../../server/core/canonical.ts";
import { createLanguageModel } from "../../../server/providers/model-factory.ts";
import type { RenderedRequest } from "../../../server/providers/render.ts";
import { streamModelCall, type ModelCallRequest } from "../../../server/providers/model-call.ts";

export const fixturesDir = path.resolve(import.meta.dirname, "../../fixtures/provider-streams");

export type FixtureProvider = "anthropic" | "openai" | "google";

/** Every fixture file of one provider, by name. */
export function listFixtures(provider: FixtureProvider): string[] {
  return readdirSync(path.join(fixturesDir, provider))
    .filter((name) => name.endsWith(".chunks.txt"))
    .sort();
}

/** The JSON payloads of one fixture, one per SSE event. */
export function readFixture(provider: FixtureProvider, name: string): string[] {
  return readFileSync(path.join(fixturesDir, provider, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** The recorded responses in a file that holds several, one after another (split at response.created). */
export function splitOpenAIResponses(lines: string[]): string[][] {
  const responses: string[][] = [];
  for (const line of lines) {
    const type = (JSON.parse(line) as { type: string }).type;
    if (type === "response.created" || responses.length === 0) responses.push([]);
    responses.at(-1)?.push(line);
  }
  return responses;
}

/** SSE framing per SOURCES.md: `event: <type>` + `data:` for Anthropic and OpenAI, `data:` only for Gemini. */
export function toSseBody(provider: FixtureProvider, lines: string[]): string {
  return lines
    .map((line) => {
      const event = provider === "google" ? "" : `event: ${(JSON.parse(line) as { type: string }).type}\n`;
      return `${event}data: ${line}\n\n`;
    })
    .join("");
}

/** A minimal hand-written chat-completions stream (no recorded fixture exists for this API). */
export function chatCompletionsSseBody(text: string): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: "assistant", content: text }, null)}${chunk({}, "stop")}data: [DONE]\n\n`;
}

export type CapturedRequest = { url: string; body: Record<string, unknown> };

/** A fetch that records each request and answers with the given SSE body. */
export function capturingFetch(sseBody: string): { fetch: typeof globalThis.fetch; requests: CapturedRequest[] } {
  const requests: CapturedRequest[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    requests.push({ url, body });
    return Promise.resolve(new Response(sseBody, { headers: { "content-type": "text/event-stream" } }));
  };
  return { fetch, requests };
}

/** The fixture each provider answers with in request-shape tests. */
export function replyFor(provider: ProviderId): string {
  if (provider === "openai-compatible") return chatCompletionsSseBody("ok");
  const name = {
    anthropic: "anthropic-text.chunks.txt",
    openai: "openai-client-tool-search.2.chunks.txt",
    google: "google-text.chunks.txt",
  }[provider];
  return toSseBody(provider, readFixture(provider, name));
}

/** A model id per provider for wire-shape tests. */
export const WIRE_TEST_MODELS: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-2.5-flash",
  "openai-compatible": "llama3.2",
};

/** The fake provider's strict request validators: undefined when the real API would accept the body. */
export const WIRE_VALIDATORS: Record<ProviderId, (body: Record<string, unknown>) => string | undefined> = {
  anthropic: validateAnthropicRequest,
  openai: validateOpenAIResponsesRequest,
  google: validateGeminiRequest,
  "openai-compatible": validateOpenAICompatRequest,
};

/** Sends a rendered request the way the turn runner does (model-call.ts) and reads the answer to its end. */
export async function drainModelCall(model: LanguageModel, request: ModelCallRequest): Promise<void> {
  for await (const part of streamModelCall(model, request, new AbortController().signal)) void part;
}

/** Sends `call` through the real AI SDK provider (fetch captured, nothing leaves the process); its body. */
export async function wireBodyOf(provider: ProviderId, call: RenderedRequest): Promise<Record<string, unknown>> {
  const { fetch, requests } = capturingFetch(replyFor(provider));
  const baseURL = provider === "openai-compatible" ? "http://127.0.0.1:1/v1" : undefined;
  const modelId = WIRE_TEST_MODELS[provider];
  const model = createLanguageModel({ provider, modelId, apiKey: "test-key", baseURL, fetch });
  await drainModelCall(model, call.options);
  if (requests.length !== 1) throw new Error(`expected one request, the SDK sent ${requests.length}`);
  return requests[0]!.body;
}
