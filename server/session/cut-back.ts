// Where a superseded turn's history is cut back to: its last consistent point. A call has FINISHED
// when its result is stored in a tool message or only logged so far (a `tool.result` event written
// before the round's tool message). A tool round (one assistant message with tool calls) is COMPLETE
// when all of its calls finished. The kept rounds are the turn's leading complete rounds, then at
// most one round in which some calls finished and others did not (a call still running or awaiting
// approval): that round is kept with a `cancelled` result for each unfinished call, so work with side
// effects that already happened is never done again and the model sees what did not finish. Whatever
// follows (a round where nothing finished, partial text, a final answer) is cut.
// Rounds are kept or cut whole, never call by call: a provider's opaque data (Anthropic thinking,
// Gemini thought signatures) belongs to the whole response.
// Each round also gets the results it lacks in storage: the logged result, else a `cancelled` one,
// so after a restart every call of the superseded turn has a stored result and its card a status.
// Pure.
import type { CanonicalMessage, ToolCallPart, ToolResultPart } from "../core/canonical.ts";
import { toolErrorResult } from "../core/tool-source.ts";

export type RoundCut = {
  /** The assistant message of the round (its text, reasoning and calls, in order). */
  assistantId: string;
  /** The stored tool message answering all of its calls, if there is one. */
  toolMessageId: string | null;
  /** A result for each call, in call order: stored, else logged, else `cancelled`. */
  results: ToolResultPart[];
  /** Those of `results` not stored yet (to store on the superseded turn), in call order. */
  missing: ToolResultPart[];
  /** Every call has a stored or logged result. */
  isComplete: boolean;
};

/** rounds: every assistant message with tool calls, in order; kept: how many leading rounds are kept. */
export type CutBack = { rounds: RoundCut[]; kept: number };

export const CANCELLED_BY_RESTART = "Not finished: the answer was restarted before this call returned.";

function cancelledResult(call: ToolCallPart): ToolResultPart {
  return {
    type: "tool-result",
    callId: call.id,
    name: call.name,
    ...toolErrorResult("cancelled", CANCELLED_BY_RESTART),
  };
}

function storedResults(
  messages: readonly CanonicalMessage[],
): Map<string, { messageId: string; result: ToolResultPart }> {
  const stored = new Map<string, { messageId: string; result: ToolResultPart }>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const result of message.parts)
      if (!stored.has(result.callId)) stored.set(result.callId, { messageId: message.id, result });
  }
  return stored;
}

/**
 * The cut of one turn's own messages (in sequence order) given the results logged for its calls.
 * See the module comment.
 */
export function cutBack(messages: readonly CanonicalMessage[], logged: readonly ToolResultPart[]): CutBack {
  const stored = storedResults(messages);
  const loggedById = new Map(logged.map((result) => [result.callId, result]));
  const rounds: RoundCut[] = [];
  let kept = 0;
  let isKeeping = true;
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const calls = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call");
    if (calls.length === 0) {
      isKeeping = false; // text after the last round: a partial or final answer
      continue;
    }
    const answers = new Set(calls.map((call) => stored.get(call.id)?.messageId ?? null));
    const results = calls.map(
      (call) => stored.get(call.id)?.result ?? loggedById.get(call.id) ?? cancelledResult(call),
    );
    const finished = calls.filter((call) => stored.has(call.id) || loggedById.has(call.id));
    const round: RoundCut = {
      assistantId: message.id,
      toolMessageId: answers.size === 1 ? [...answers][0]! : null,
      results,
      missing: results.filter((result) => !stored.has(result.callId)),
      isComplete: finished.length === calls.length,
    };
    rounds.push(round);
    const isKept: boolean = isKeeping && finished.length > 0; // a round with a finished call, after complete ones
    if (isKept) kept += 1;
    isKeeping = isKept && round.isComplete; // nothing after a round that did not finish
  }
  return { rounds, kept };
}
