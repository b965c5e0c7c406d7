// Context overlays: what the user changed of what the model sees, applied to a canonical transcript
// for ONE request. Pure (no I/O, clock or env); the canonical history is never rewritten.
// - exclude a message (messageId): it is left out; a tool call and its result go or stay as a pair,
//   so excluding an assistant message drops its calls' results and excluding a tool message drops
//   the calls it answers. Exclude a tool round (callId): every call of that call's assistant
//   message and their results go. The message the request answers (the last user message) is
//   always sent.
// - pin a note (text): inserted as a user message just before the last user message, for every
//   request until unpinned, in the order pinned.
// - replace a tool result (callId): the model sees the summary instead of the output.
// Afterwards the transcript keeps the shape every provider needs: it starts with a user message,
// adjacent assistant messages are merged (an excluded user message between them), assistant messages
// that lost their calls keep only their text (reasoning belongs to the calls it led to) and are
// dropped when empty, and it never ends with an assistant message that calls nothing. Without
// overlays the transcript is returned as it is.
import type { AssistantPart, CanonicalMessage, ToolResultPart, Transcript } from "./canonical.ts";

export const overlayKinds = ["exclude", "pin", "replace"] as const;
export type OverlayKind = (typeof overlayKinds)[number];

export type ContextOverlay = {
  id: string;
  kind: OverlayKind;
  messageId: string | null;
  callId: string | null;
  text: string | null;
};

/** One thing an overlay changed in a request: the message, call or pin it names, and in words. */
export type OverlayEntry = { id: string; label: string };

/** What the overlays changed in one request (recorded on its audit row, shown in turn details). */
export type OverlayReport = { excluded: OverlayEntry[]; pinned: OverlayEntry[]; replaced: OverlayEntry[] };

export type OverlaidTranscript = { transcript: Transcript; report: OverlayReport };

/** The words a pinned note is sent with. */
export const PINNED_NOTE_PREFIX = "Pinned note from the user (kept in context):";

/** The words a replaced tool result is sent with. */
export const SUMMARY_PREFIX = "[Summary of the original tool result, replaced by the user]";

const SNIPPET = 60;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET - 1)}…` : flat;
}

function describeMessage(message: CanonicalMessage): string {
  if (message.role === "tool") return `tool results ${message.parts.map((part) => part.name).join(", ")}`;
  const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
  const calls = message.parts.flatMap((part) => (part.type === "tool-call" ? [part.name] : []));
  const words = [text.trim() ? `“${snippet(text)}”` : "", calls.length > 0 ? `calls ${calls.join(", ")}` : ""];
  return `${message.role} message ${words.filter(Boolean).join(" + ")}`.trim();
}

function callIdsOf(message: CanonicalMessage): string[] {
  if (message.role === "assistant")
    return message.parts.flatMap((part) => (part.type === "tool-call" ? [part.id] : []));
  if (message.role === "tool") return message.parts.map((part) => part.callId);
  return [];
}

type Exclusions = { messageIds: Set<string>; callIds: Set<string>; excluded: OverlayEntry[] };

/** Which messages and calls go (pairs whole), and the report entries for the overlays that applied. */
function collectExclusions(messages: CanonicalMessage[], overlays: ContextOverlay[]): Exclusions {
  const lastUserId = messages.findLast((message) => message.role === "user")?.id;
  const byId = new Map(messages.map((message) => [message.id, message]));
  const result: Exclusions = { messageIds: new Set(), callIds: new Set(), excluded: [] };
  for (const overlay of overlays) {
    if (overlay.kind !== "exclude") continue;
    const message = overlay.messageId ? byId.get(overlay.messageId) : undefined;
    if (message && message.id !== lastUserId && !result.messageIds.has(message.id)) {
      result.messageIds.add(message.id);
      for (const id of callIdsOf(message)) result.callIds.add(id);
      result.excluded.push({ id: message.id, label: describeMessage(message) });
    }
    const round = overlay.callId
      ? messages.find((m) => m.role === "assistant" && callIdsOf(m).includes(overlay.callId!))
      : undefined;
    if (round && !callIdsOf(round).every((id) => result.callIds.has(id))) {
      const names = round.parts.flatMap((part) => (part.type === "tool-call" ? [part.name] : []));
      for (const id of callIdsOf(round)) result.callIds.add(id);
      result.excluded.push({ id: overlay.callId!, label: `tool round ${names.join(", ")}` });
    }
  }
  return result;
}

function keepAssistantParts(parts: AssistantPart[], callIds: Set<string>): AssistantPart[] {
  const kept = parts.filter((part) => part.type !== "tool-call" || !callIds.has(part.id));
  if (kept.length === parts.length) return parts;
  // It lost calls: its reasoning led to them, so only its words stay.
  return kept.filter((part) => part.type !== "reasoning" && !(part.type === "text" && part.text.trim() === ""));
}

function replaceResult(part: ToolResultPart, summaries: Map<string, string>): ToolResultPart {
  const summary = summaries.get(part.callId);
  return summary === undefined ? part : { ...part, output: `${SUMMARY_PREFIX}\n${summary}`, isError: false };
}

/** The messages left after the exclusions and replacements, each non-empty. */
function filterMessages(messages: CanonicalMessage[], exclusions: Exclusions, summaries: Map<string, string>) {
  return messages.flatMap((message): CanonicalMessage[] => {
    if (exclusions.messageIds.has(message.id)) return [];
    if (message.role === "user") return [message];
    if (message.role === "tool") {
      const parts = message.parts
        .filter((p) => !exclusions.callIds.has(p.callId))
        .map((p) => replaceResult(p, summaries));
      return parts.length > 0 ? [{ ...message, parts }] : [];
    }
    const parts = keepAssistantParts(message.parts, exclusions.callIds);
    return parts.length > 0 ? [{ ...message, parts }] : [];
  });
}

/** Starts with a user message, merges adjacent assistant messages, ends on a user message or results. */
function reshape(messages: CanonicalMessage[]): CanonicalMessage[] {
  const firstUser = messages.findIndex((message) => message.role === "user");
  const shaped: CanonicalMessage[] = [];
  for (const message of firstUser < 0 ? [] : messages.slice(firstUser)) {
    const previous = shaped.at(-1);
    if (message.role === "assistant" && previous?.role === "assistant") {
      shaped[shaped.length - 1] = { ...previous, parts: [...previous.parts, ...message.parts] };
    } else {
      shaped.push(message);
    }
  }
  while (shaped.at(-1)?.role === "assistant" && callIdsOf(shaped.at(-1)!).length === 0) shaped.pop();
  return shaped;
}

function insertPins(messages: CanonicalMessage[], pins: ContextOverlay[]): CanonicalMessage[] {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (pins.length === 0 || lastUser < 0) return messages;
  const note: CanonicalMessage = {
    id: `pinned-${pins[0]!.id}`,
    role: "user",
    parts: pins.map((pin) => ({ type: "text" as const, text: `${PINNED_NOTE_PREFIX} ${pin.text ?? ""}` })),
  };
  return [...messages.slice(0, lastUser), note, ...messages.slice(lastUser)];
}

/** The transcript one request renders from, and what the overlays changed in it. */
export function applyOverlays(transcript: Transcript, overlays: readonly ContextOverlay[]): OverlaidTranscript {
  const list = [...overlays];
  if (list.length === 0) return { transcript, report: { excluded: [], pinned: [], replaced: [] } };
  const exclusions = collectExclusions(transcript.messages, list);
  const present = new Map(
    transcript.messages.flatMap((m) => (m.role === "tool" ? m.parts.map((p) => [p.callId, p] as const) : [])),
  );
  const replacements = list.filter(
    (o) => o.kind === "replace" && o.callId && present.has(o.callId) && !exclusions.callIds.has(o.callId),
  );
  const summaries = new Map(replacements.map((o) => [o.callId!, o.text ?? ""]));
  const pins = list.filter((o) => o.kind === "pin" && (o.text ?? "").trim() !== "");
  const messages = insertPins(reshape(filterMessages(transcript.messages, exclusions, summaries)), pins);
  const report: OverlayReport = {
    excluded: exclusions.excluded,
    pinned: messages.some((m) => m.role === "user") ? pins.map((o) => ({ id: o.id, label: snippet(o.text!) })) : [],
    replaced: replacements.map((o) => ({ id: o.callId!, label: `result of ${present.get(o.callId!)!.name}` })),
  };
  return { transcript: { ...transcript, messages }, report };
}

/** True when the overlays changed nothing (the request is the canonical history as it is). */
export function isEmptyReport(report: OverlayReport): boolean {
  return report.excluded.length === 0 && report.pinned.length === 0 && report.replaced.length === 0;
}
