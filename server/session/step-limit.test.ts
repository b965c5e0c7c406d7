// The request after the step limit, as each provider receives it: renderFinalRequest → the model
// call (model-call.ts) through the real AI SDK provider, the wire body checked by the fake provider's strict validators. It holds
// the last round's results, offers no tool (tool choice none, tools still declared where the history
// has tool blocks) and tells the model why, for histories produced by any provider.
import { describe, expect, it } from "vitest";

import { WIRE_TEST_MODELS, WIRE_VALIDATORS, wireBodyOf } from "../../e2e/support/testbeds/provider-wire.ts";
import { snapshot, toolRound } from "../../e2e/support/testbeds/transcripts.ts";
import { providerIds, type ProviderId, type ToolSnapshot, type Transcript } from "../core/canonical.ts";
import { renderFinalRequest, stepLimitNote } from "./step-limit.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

async function finalBody(provider: ProviderId, transcript: Transcript, tools: ToolSnapshot, nativeTools = true) {
  const modelId = WIRE_TEST_MODELS[provider];
  const call = renderFinalRequest({ provider, modelId, transcript, snapshot: tools, isFollowUp: true, nativeTools }, 4);
  return { body: await wireBodyOf(provider, call), call };
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
    expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBe(NONE[provider]);
    expect(call.toolNames).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).toContain("Step limit reached: this answer has used its 4 model requests");
    expect(text).toContain("You are helpful."); // the chat's own system prompt stays first
  });

  it("is valid when the history calls a tool the snapshot no longer has", async () => {
    const { body } = await finalBody(provider, toolRound(provider), withoutSearch);
    expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBe(NONE[provider]);
  });

  it("is valid with no tool left at all (tool history as text, no tool choice)", async () => {
    const { body } = await finalBody(provider, toolRound(provider), { revision: 9, tools: [] });
    expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
    expect(toolChoiceOf(provider, body)).toBeUndefined();
    expect(JSON.stringify(body)).toContain("Step limit reached");
  });
});

describe("the request after the step limit with tools as text", () => {
  it("describes no tool and declares none", async () => {
    const { body, call } = await finalBody("openai-compatible", toolRound("openai-compatible"), snapshot, false);
    expect(WIRE_VALIDATORS["openai-compatible"](body)).toBeUndefined();
    expect(body.tools).toBeUndefined();
    expect(call.system).not.toContain("# Tools");
    expect(call.system).toContain(stepLimitNote(4));
  });
});
