// Context overlays never make a request a provider would refuse: for a table of transcripts (tool
// rounds with provider data from each provider, a turn cut off after its results, a turn mid-round)
// and of overlay sets (exclude a message, a tool message, an assistant message with calls, a round,
// the first user message, a user message between two answers; pin notes; replace a result; all at
// once), applyOverlays → renderRequest → the real AI SDK provider's body passes the fake provider's
// strict validator for all four providers (Gemini: nothing between a functionCall and its
// functionResponse; Anthropic: tool_result blocks first in the next user message; roles alternate).
import { describe, expect, it } from "vitest";

import type { CanonicalMessage, ProviderId, Transcript } from "../core/canonical.ts";
import { applyOverlays, type ContextOverlay, type OverlayKind } from "../core/context-overlays.ts";
import { renderRequest } from "./render.ts";
import { WIRE_TEST_MODELS, WIRE_VALIDATORS, wireBodyOf } from "../../e2e/support/testbeds/provider-wire.ts";
import { snapshot, toolRound, toolRoundThenUser } from "../../e2e/support/testbeds/transcripts.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const PROVIDERS: ProviderId[] = ["anthropic", "openai", "google", "openai-compatible"];

const user = (id: string, text: string): CanonicalMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const answer = (id: string, text: string): CanonicalMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text }],
});

/** Two turns, then a third mid-round: every message id a user might pick. */
function longHistory(producer: ProviderId): Transcript {
  const round = toolRound(producer).messages;
  return {
    system: "You are helpful.",
    messages: [
      ...round, // m1 user, m2 assistant (reasoning, text, calls call_c1 + call_c2), m3 results
      answer("m5", "It is noon; two bugs."),
      user("m6", "Anything else?"),
      answer("m7", "No."),
      user("m8", "Check again."),
      {
        id: "m9",
        role: "assistant",
        parts: [{ type: "tool-call", id: "call_d1", name: "builtin.current_time", args: {} }],
      },
      {
        id: "m10",
        role: "tool",
        parts: [
          { type: "tool-result", callId: "call_d1", name: "builtin.current_time", output: "12:01", isError: false },
        ],
      },
    ],
  };
}

const TRANSCRIPTS: Record<string, (producer: ProviderId) => Transcript> = {
  "a finished tool round": (producer) => toolRound(producer),
  "a round cut off, then a new user message": (producer) => toolRoundThenUser(producer),
  "two turns and a third mid-round": longHistory,
};

const o = (kind: OverlayKind, fields: Partial<ContextOverlay>, id = `${kind}-${JSON.stringify(fields)}`) => ({
  id,
  kind,
  messageId: null,
  callId: null,
  text: null,
  ...fields,
});

const OVERLAYS: Record<string, ContextOverlay[]> = {
  "exclude the first user message": [o("exclude", { messageId: "m1" })],
  "exclude the assistant message with calls": [o("exclude", { messageId: "m2" })],
  "exclude the tool message": [o("exclude", { messageId: "m3" })],
  "exclude a round by one call": [o("exclude", { callId: "call_c2" })],
  "exclude the latest round": [o("exclude", { callId: "call_d1" })],
  "exclude a user message between two answers": [o("exclude", { messageId: "m6" })],
  "exclude an answer": [o("exclude", { messageId: "m5" }), o("exclude", { messageId: "m7" })],
  "pin two notes": [o("pin", { text: "Answer in French." }), o("pin", { text: "Be brief." })],
  "replace a result": [o("replace", { callId: "call_c2", text: "Two open bugs." })],
  "everything at once": [
    o("exclude", { messageId: "m6" }),
    o("exclude", { callId: "call_d1" }),
    o("pin", { text: "Answer in French." }),
    o("replace", { callId: "call_c1", text: "Noon." }),
  ],
};

async function wireBody(provider: ProviderId, transcript: Transcript) {
  const modelId = WIRE_TEST_MODELS[provider];
  return wireBodyOf(provider, renderRequest({ provider, modelId, transcript, snapshot, isFollowUp: true }));
}

describe.each(PROVIDERS)("overlaid and rendered for %s, the request passes the strict validator", (provider) => {
  for (const [transcriptName, transcriptOf] of Object.entries(TRANSCRIPTS)) {
    for (const [overlayName, overlays] of Object.entries(OVERLAYS)) {
      it.each(PROVIDERS)(`${transcriptName}, ${overlayName} (history from %s)`, async (producer) => {
        const { transcript } = applyOverlays(transcriptOf(producer), overlays);
        const body = await wireBody(provider, transcript);
        expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
      });
    }
  }
});

describe("what the provider receives", () => {
  it("Anthropic: a pinned note joins the last user message after the tool results", async () => {
    const { transcript } = applyOverlays(toolRoundThenUser("anthropic"), OVERLAYS["pin two notes"]!);
    const body = await wireBody("anthropic", transcript);
    const messages = body.messages as { role: string; content: { type: string; text?: string }[] }[];
    const last = messages.at(-1)!;
    expect(last.content.map((block) => block.type)).toEqual(["tool_result", "tool_result", "text", "text", "text"]);
    expect(last.content.at(-1)!.text).toBe("Thanks, and now?");
  });

  it("Gemini: an excluded round leaves no functionCall or functionResponse behind", async () => {
    const { transcript } = applyOverlays(longHistory("google"), OVERLAYS["exclude a round by one call"]!);
    const text = JSON.stringify(await wireBody("google", transcript));
    expect(text.match(/"functionCall"/g)).toHaveLength(1);
    expect(text.match(/"functionResponse"/g)).toHaveLength(1);
  });
});
