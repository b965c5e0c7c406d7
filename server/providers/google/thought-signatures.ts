// Gemini and the function calls it did not make. Gemini 3 validates the thought signatures of the
// current turn's functionCall parts, and a chat can switch provider mid-way, so a Gemini request may
// replay calls made by Anthropic, OpenAI, another Google account, or a Gemini model that signed
// nothing. Google documents a placeholder for exactly this (histories moved between models):
// https://ai.google.dev/gemini-api/docs/thought-signatures — "skip_thought_signature_validator".
// Invariant: every functionCall a Gemini request carries has a signature, its own or the placeholder.
// The one exception is Gemini's own: in a model response with parallel calls only the first call is
// signed, and Google requires the others to be replayed as they came (unsigned).
import type { ModelMessage } from "ai";

export const PLACEHOLDER_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

type AssistantContent = Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>;
type Part = AssistantContent[number];

function signatureOf(part: Part): unknown {
  return part.type === "tool-call" ? part.providerOptions?.google?.thoughtSignature : undefined;
}

/**
 * `content`: one rendered assistant message bound for Gemini; `ownCallIds`: the ids of its calls that
 * this very Google account and endpoint made (their own signatures, if any, are already attached).
 */
export function signFunctionCalls(content: AssistantContent, ownCallIds: ReadonlySet<string>): AssistantContent {
  const hasOwnSignedCall = content.some((part) => typeof signatureOf(part) === "string");
  return content.map((part) => {
    if (part.type !== "tool-call" || typeof signatureOf(part) === "string") return part;
    if (hasOwnSignedCall && ownCallIds.has(part.toolCallId)) return part; // a parallel call after a signed one
    const google = { ...part.providerOptions?.google, thoughtSignature: PLACEHOLDER_THOUGHT_SIGNATURE };
    return { ...part, providerOptions: { ...part.providerOptions, google } };
  });
}
