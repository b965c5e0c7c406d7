// Every rendered request is one the real API accepts: renderRequest → the model call (model-call.ts)
// through the real AI SDK provider, whose request body is checked by the fake provider's strict validators (tool names and
// schemas, message and tool-call ordering as each API enforces them) for histories that are easy to
// get wrong: a turn cut off between its tool results and its answer, a cancelled call without a
// result, a partly answered parallel round, calls to tools the snapshot no longer has, another
// provider's history, no tools declared at all.
import { describe, expect, it } from "vitest";

import type { CanonicalMessage, ProviderId, ToolSnapshot, Transcript } from "../core/canonical.ts";
import { INTERRUPTED_RESPONSE_PLACEHOLDER, renderRequest } from "./render.ts";
import { WIRE_TEST_MODELS, WIRE_VALIDATORS, wireBodyOf } from "../../e2e/support/testbeds/provider-wire.ts";
import { snapshot, toolRound, toolRoundThenUser } from "../../e2e/support/testbeds/transcripts.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const PROVIDERS: ProviderId[] = ["anthropic", "openai", "google", "openai-compatible"];

function wireBody(provider: ProviderId, transcript: Transcript, tools: ToolSnapshot = snapshot) {
  const modelId = WIRE_TEST_MODELS[provider];
  return wireBodyOf(provider, renderRequest({ provider, modelId, transcript, snapshot: tools, isFollowUp: true }));
}

const user = (id: string, text: string): CanonicalMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const call = (id: string, name = "builtin.current_time") => ({ type: "tool-call" as const, id, name, args: {} });
const result = (callId: string, name = "builtin.current_time") => ({
  type: "tool-result" as const,
  callId,
  name,
  output: "12:00",
  isError: false,
});

const HISTORIES: Record<string, (producer: ProviderId) => Transcript> = {
  "a finished tool round, follow-up request": (producer) => toolRound(producer),
  "a tool round cut off before its answer, then a new user message": (producer) => toolRoundThenUser(producer),
  "a cancelled call without a result, then a new user message": () => ({
    messages: [
      user("u1", "Time?"),
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Checking." }, call("call_x1")] },
      user("u2", "Never mind."),
    ],
  }),
  "a call-only assistant message without a result, then a new user message": () => ({
    messages: [
      user("u1", "Time?"),
      { id: "a1", role: "assistant", parts: [call("call_x1")] },
      user("u2", "Never mind."),
    ],
  }),
  "a parallel round with one result missing": () => ({
    messages: [
      user("u1", "Time twice?"),
      { id: "a1", role: "assistant", parts: [call("call_p1"), call("call_p2")] },
      { id: "t1", role: "tool", parts: [result("call_p2")] },
      user("u2", "And now?"),
    ],
  }),
  "two tool rounds and an answer, then a call to a tool no longer offered": () => ({
    messages: [
      user("u1", "Search."),
      { id: "a1", role: "assistant", parts: [call("call_r1", "gone.tool")] },
      { id: "t1", role: "tool", parts: [result("call_r1", "gone.tool")] },
      { id: "a2", role: "assistant", parts: [call("call_r2")] },
      { id: "t2", role: "tool", parts: [result("call_r2")] },
      { id: "a3", role: "assistant", parts: [{ type: "text", text: "Done." }] },
      user("u2", "Again?"),
    ],
  }),
};

describe.each(PROVIDERS)("rendered for %s, the request passes the strict validator", (provider) => {
  for (const [name, history] of Object.entries(HISTORIES)) {
    it.each(PROVIDERS)(`${name} (history from %s)`, async (producer) => {
      const body = await wireBody(provider, history(producer));
      expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
    });
  }

  it("with no tool declared (tool history rendered as text)", async () => {
    const body = await wireBody(provider, toolRoundThenUser(provider), { revision: 1, tools: [] });
    expect(WIRE_VALIDATORS[provider](body)).toBeUndefined();
  });
});

describe("Gemini after a turn cut off between its tool round and its answer", () => {
  it("gets a placeholder model turn between the function responses and the new user text", async () => {
    const body = await wireBody("google", toolRoundThenUser("google"));
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((content) => content.role)).toEqual(["user", "model", "user", "model", "user"]);
    expect(contents[2]!.parts.every((part) => "functionResponse" in part)).toBe(true);
    expect(contents[3]!.parts).toEqual([{ text: INTERRUPTED_RESPONSE_PLACEHOLDER }]);
    expect(contents[4]!.parts).toEqual([{ text: "Thanks, and now?" }]);
  });

  it("is left alone by the other providers", async () => {
    const body = await wireBody("anthropic", toolRoundThenUser("anthropic"));
    expect(JSON.stringify(body)).not.toContain(INTERRUPTED_RESPONSE_PLACEHOLDER);
  });
});
