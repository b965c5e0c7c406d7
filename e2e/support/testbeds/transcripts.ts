// Canonical transcripts and a tool snapshot shared by the render tests: one tool round produced by
// each provider, with the opaque data each provider really attaches (values shaped like the
// recorded fixtures). Only tests import this file.
import type {
  CanonicalMessage,
  ProviderId,
  ProviderOrigin,
  ToolSnapshot,
  Transcript,
} from "../../../server/core/canonical.ts";

export const ANTHROPIC_SIGNATURE = "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Pt";
export const OPENAI_ENCRYPTED = "gAAAAABpPDIVOKrsHNZ0GwsoEKA_IGfuJ5f8Ma_6-EojH4yZFL50qlfUzM7FREdQ";
export const GOOGLE_SIGNATURE = "EqUCCqICAb4+9vsh8Pd5taZVoPzSvjWWwzBrvhEQWBLCGa7IdY8FBMm7Z6dCKFU3Ft0la15g";
export const GOOGLE_TEXT_SIGNATURE = "EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW65XsYXh6BySMwl9nvrbAvPcl2U0";

export const snapshot: ToolSnapshot = {
  revision: 7,
  tools: [
    {
      canonicalName: "builtin.current_time",
      exposedName: "builtin_current_time",
      description: "The current time.",
      inputSchema: { type: "object", properties: {} },
    },
    {
      canonicalName: "github.search_issues",
      exposedName: "github_search_issues",
      description: "Search issues.",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        additionalProperties: false,
        $defs: { state: { type: "string", enum: ["open", "closed"] } },
        properties: {
          query: { type: "string" },
          state: { $ref: "#/$defs/state" },
          kind: { const: "issue" },
          limit: { type: ["integer", "null"] },
        },
        required: ["query"],
      },
    },
  ],
};

const user = (id: string, text: string): CanonicalMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

const results = (id: string): CanonicalMessage => ({
  id,
  role: "tool",
  parts: [
    { type: "tool-result", callId: "call_c1", name: "builtin.current_time", output: "12:00", isError: false },
    { type: "tool-result", callId: "call_c2", name: "github.search_issues", output: { count: 2 }, isError: false },
  ],
});

/** Reasoning, text and two tool calls exactly as each provider streams them (canonical form). */
function assistantRound(provider: ProviderId, origin?: ProviderOrigin): CanonicalMessage {
  type Data = Record<string, string> | undefined;
  const table: Record<ProviderId, { reasoning: Data; text: Data; call: Data }> = {
    anthropic: { reasoning: { signature: ANTHROPIC_SIGNATURE }, text: undefined, call: undefined },
    openai: {
      reasoning: { itemId: "rs_1", reasoningEncryptedContent: OPENAI_ENCRYPTED },
      text: { itemId: "msg_1" },
      call: { itemId: "fc_1" },
    },
    google: {
      reasoning: undefined,
      text: { thoughtSignature: GOOGLE_TEXT_SIGNATURE },
      call: { thoughtSignature: GOOGLE_SIGNATURE },
    },
    "openai-compatible": { reasoning: undefined, text: undefined, call: undefined },
  };
  const data = table[provider];
  const from = origin ? { origin } : {};
  const tag = (value: Data) => (value ? { providerData: { provider, data: value, ...from } } : {});
  return {
    id: "m2",
    role: "assistant",
    parts: [
      { type: "reasoning", text: "I should look up the time and issues.", ...tag(data.reasoning) },
      { type: "text", text: "Let me check.", ...tag(data.text) },
      {
        type: "tool-call",
        id: "call_c1",
        name: "builtin.current_time",
        args: {},
        providerCallId: { provider, id: `${provider}-native-1`, ...from },
        ...tag(data.call),
      },
      {
        type: "tool-call",
        id: "call_c2",
        name: "github.search_issues",
        args: { query: "bug" },
        providerCallId: { provider, id: `${provider}-native-2`, ...from },
      },
    ],
  };
}

/**
 * user → assistant (reasoning, text, two calls) → tool results, produced by `provider` (through the
 * account and endpoint `origin`, or as rows stored before origins were recorded).
 */
export function toolRound(provider: ProviderId, system = "You are helpful.", origin?: ProviderOrigin): Transcript {
  return {
    system,
    messages: [user("m1", "What time is it, and any bugs?"), assistantRound(provider, origin), results("m3")],
  };
}

/** A finished round followed by a new user message (the next turn's first request). */
export function toolRoundThenUser(provider: ProviderId): Transcript {
  const round = toolRound(provider);
  return { ...round, messages: [...round.messages, user("m4", "Thanks, and now?")] };
}
