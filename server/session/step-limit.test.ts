// The request after the step limit, as each provider receives it: renderFinalRequest → streamText with
// the real AI SDK provider, the wire body checked by the fake provider's strict validators. It holds
// the last round's results, offers no tool (tool choice none, tools still declared where the history
// has tool blocks) and tells the model why, for histories produced by any provider.
import { streamText } from "ai";
import { describe, expect, it } from "vitest";

import { validateAnthropicRequest } from "../../e2e/support/fake-provider/validate-anthropic.ts";
import { validateGeminiRequest } from "../../e2e/support/fake-provider/validate-gemini.ts";
import { validateOpenAICompatRequest } from "../../e2e/support/fake-provider/validate-openai-compat.ts";
import { validateOpenAIResponsesRequest } from "../../e2e/support/fake-provider/validate-openai-responses.ts";
import { createLanguageModel } from "../providers/model-factory.ts";
import { capturingFetch, replyFor } from "../providers/test-support.ts";
import { snapshot, toolRound } from "../providers/test-transcripts.ts";
import { providerIds, type ProviderId, type ToolSnapshot, type Transcript } from "./canonical.ts";
import { renderFinalRequest, stepLimitNote } from "./step-limit.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const MODELS: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-2.5-flash",
  "openai-compatible": "llama3.2",
};
const VALIDATORS: Record<ProviderId, (body: Record<string, unknown>) => string | undefined> = {
  anthropic: validateAnthropicRequest,
  openai: validateOpenAIResponsesRequest,
  google: validateGeminiRequest,
  "openai-compatible": validateOpenAICompatRequest,
};

async function finalBody(provider: ProviderId, transcript: Transcript, tools: ToolSnapshot, nativeTools = true) {
  const { fetch, requests } = capturingFetch(replyFor(provider));
  const baseURL = provider === "openai-compatible" ? "http://127.0.0.1:1/v1" : undefined;
  const modelId = MODELS[provider];
  const model = createLanguageModel({ provider, modelId, apiKey: "test-key", baseURL, fetch });
  const call = renderFinalRequest({ provider, modelId, transcript, snapshot: tools, isFollowUp: true, nativeTools }, 4);
  await streamText({ model, ...call.options, maxRetries: 0, onError: () => {} }).consumeStream();
  expect(requests).toHaveLength(1);
  return { body: requests[0]!.body, call };
}

function toolChoiceOf(provider: ProviderId, body: Record<string, unknown>): string | undefined {
  if (provider === "anthropic") return (body.tool_choice as { type?: string } | undefined)?.type;
  if (provider === "google")
    return (body.toolConfig as { functionCallingConfig?: { mode?: string } } | undefined)?.functionCallingConfig?.mode;
  return body.tool_choice as string | undefined;
}

const NONE: Record<ProviderId, string> = {
  anthropic: "none",
  openai: "none",
  google: "NONE",
  "openai-compatible": "none",
};
/** The snapshot without the tool the history's second call used (switched off since). */
const withoutSearch: ToolSnapshot = { revision: 8, tools: snapshot.tools.slice(0, 1) };

describe.each(providerIds)("the request after the step limit, for %s", (provider) => {
  it.each(providerIds)("is valid, offers no tool and carries the note (history from %s)", async (producer) => {
    const { body, call } = await finalBody(provider, toolRound(producer), snapshot);
    expect(VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBe(NONE[provider]);
    expect(call.toolNames).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).toContain("Step limit reached: this answer has used its 4 model requests");
    expect(text).toContain("You are helpful."); // the chat's own system prompt stays first
  });

  it("is valid when the history calls a tool the snapshot no longer has", async () => {
    const { body } = await finalBody(provider, toolRound(provider), withoutSearch);
    expect(VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBe(NONE[provider]);
  });

  it("is valid with no tool left at all (tool history as text, no tool choice)", async () => {
    const { body } = await finalBody(provider, toolRound(provider), { revision: 9, tools: [] });
    expect(VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBeUndefined();
    expect(JSON.stringify(body)).toContain("Step limit reached");
  });
});

describe("the request after the step limit with tools as text", () => {
  it("describes no tool and declares none", async () => {
    const { body, call } = await finalBody("openai-compatible", toolRound("openai-compatible"), snapshot, false);
    expect(VALIDATORS["openai-compatible"](body)).toBeUndefined();
    expect(body.tools).toBeUndefined();
    expect(call.system).not.toContain("# Tools");
    expect(call.system).toContain(stepLimitNote(4));
  });
});
