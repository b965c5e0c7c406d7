// A message part as it leaves the server (history, events): provider-opaque data (signatures,
// provider call ids) stripped. Shared by the history (history.ts) and sub-agent runs.
import type { AssistantPart, JsonValue } from "../core/canonical.ts";

export type PartDto =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; id: string; name: string; args: Record<string, JsonValue> }
  | { type: "tool-result"; callId: string; name: string; output: JsonValue; isError: boolean; durationMs?: number };

/** Strips provider-opaque data (signatures, provider call ids) before anything leaves the server. */
export function toPartDto(part: AssistantPart | PartDto): PartDto {
  switch (part.type) {
    case "text":
    case "reasoning":
      return { type: part.type, text: part.text };
    case "tool-call":
      return { type: "tool-call", id: part.id, name: part.name, args: part.args };
    case "tool-result":
      return part;
  }
}
