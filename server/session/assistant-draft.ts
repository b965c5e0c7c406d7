// The assistant message being streamed, built from canonical StreamEvents. Pure state: it keeps
// the parts as they grow and the deltas not yet published, so the writer can persist a batch (the
// message's parts and one event per changed part) every few tens of milliseconds.
import { randomBytes } from "node:crypto";

import type {
  AssistantPart,
  ProviderId,
  ProviderOrigin,
  StreamEvent,
  ToolCallPart,
  ToolSnapshot,
} from "../core/canonical.ts";

export type PendingDelta = { kind: "text" | "reasoning"; partIndex: number; text: string };

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A canonical tool-call id: `call_` + 22 random base62 characters (accepted by every provider). */
export function newCanonicalCallId(): string {
  const bytes = randomBytes(22);
  return `call_${Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("")}`;
}

export class AssistantDraft {
  readonly parts: AssistantPart[] = [];
  readonly toolCalls: ToolCallPart[] = [];
  private pending: PendingDelta[] = [];
  private openKind: "text" | "reasoning" | null = null;
  finishReason: string | null = null;
  usage: { inputTokens?: number; outputTokens?: number } = {};
  error: string | null = null;
  hasContent = false;

  constructor(
    private readonly provider: ProviderId,
    private readonly snapshot: ToolSnapshot,
    /** The request's account + endpoint; the provider's call ids are tagged with it. */
    private readonly origin?: ProviderOrigin,
  ) {}

  /** Applies one event; returns a tool call when the event completed one (publish it at once). */
  apply(event: StreamEvent): ToolCallPart | null {
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta":
        this.appendDelta(event.type === "text-delta" ? "text" : "reasoning", event.text);
        return null;
      case "text-end":
      case "reasoning-end":
        this.closeOpenPart(event.providerData);
        return null;
      case "tool-call":
        return this.addToolCall(event);
      case "finish":
        this.finishReason = event.finishReason;
        this.usage = event.usage;
        return null;
      case "error":
        this.error = event.message;
        return null;
    }
  }

  /** Deltas since the last call, merged per part. */
  takePending(): PendingDelta[] {
    const merged: PendingDelta[] = [];
    for (const delta of this.pending) {
      const last = merged.at(-1);
      if (last && last.partIndex === delta.partIndex) last.text += delta.text;
      else merged.push({ ...delta });
    }
    this.pending = [];
    return merged;
  }

  private appendDelta(kind: "text" | "reasoning", text: string): void {
    if (!text) return;
    this.hasContent = true;
    const last = this.parts.at(-1);
    if (this.openKind !== kind || !last || last.type !== kind) {
      this.parts.push({ type: kind, text: "" });
      this.openKind = kind;
    }
    const index = this.parts.length - 1;
    const part = this.parts[index] as { text: string };
    part.text += text;
    this.pending.push({ kind, partIndex: index, text });
  }

  private closeOpenPart(providerData: AssistantPart["providerData"]): void {
    const last = this.parts.at(-1);
    if (last && (last.type === "text" || last.type === "reasoning") && providerData) last.providerData = providerData;
    this.openKind = null;
  }

  private addToolCall(event: Extract<StreamEvent, { type: "tool-call" }>): ToolCallPart {
    this.openKind = null;
    this.hasContent = true;
    const spec = this.snapshot.tools.find((tool) => tool.exposedName === event.exposedName);
    const part: ToolCallPart = {
      type: "tool-call",
      id: newCanonicalCallId(),
      name: spec?.canonicalName ?? event.exposedName,
      args: event.args,
      providerCallId: {
        provider: this.provider,
        id: event.providerCallId,
        ...(this.origin && { origin: this.origin }),
      },
      ...(event.providerData ? { providerData: event.providerData } : {}),
    };
    this.parts.push(part);
    this.toolCalls.push(part);
    return part;
  }
}
