// Puts a canonical history into the shape every provider requires: each assistant message is
// followed by the results of its tool calls, one result per call, in the order of the calls.
// Contract: a tool call with no result anywhere in the transcript (a cancelled or crashed turn) is
// DROPPED, never sent, because every provider rejects a call without a result; an assistant message
// left empty by that is dropped too. A result whose call is not in the transcript is dropped. Only the
// first result for a call id counts. Pure.
import type { AssistantPart, CanonicalMessage, TextPart, ToolCallPart, ToolResultPart } from "../core/canonical.ts";

export type PairedCall = { call: ToolCallPart; result: ToolResultPart };

export type PairedTurn =
  { role: "user"; parts: TextPart[] } | { role: "assistant"; parts: AssistantPart[]; results: PairedCall[] };

function firstResultById(messages: readonly CanonicalMessage[]): Map<string, ToolResultPart> {
  const results = new Map<string, ToolResultPart>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.parts) if (!results.has(part.callId)) results.set(part.callId, part);
  }
  return results;
}

function pairAssistant(parts: AssistantPart[], results: Map<string, ToolResultPart>, used: Set<string>) {
  const kept: AssistantPart[] = [];
  const paired: PairedCall[] = [];
  for (const part of parts) {
    if (part.type !== "tool-call") {
      kept.push(part);
      continue;
    }
    const result = results.get(part.id);
    if (!result || used.has(part.id)) continue;
    used.add(part.id);
    kept.push(part);
    paired.push({ call: part, result });
  }
  return { kept, paired };
}

/** The turns to render, with each assistant message's tool results attached in call order. */
export function pairToolResults(messages: readonly CanonicalMessage[]): PairedTurn[] {
  const results = firstResultById(messages);
  const used = new Set<string>();
  const turns: PairedTurn[] = [];
  for (const message of messages) {
    if (message.role === "user") turns.push({ role: "user", parts: message.parts });
    if (message.role !== "assistant") continue;
    const { kept, paired } = pairAssistant(message.parts, results, used);
    if (kept.length > 0) turns.push({ role: "assistant", parts: kept, results: paired });
  }
  return turns;
}
