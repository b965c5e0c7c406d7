import { describe, expect, it } from "vitest";

import type { CanonicalMessage, Transcript } from "./canonical.ts";
import {
  applyOverlays,
  PINNED_NOTE_PREFIX,
  SUMMARY_PREFIX,
  type ContextOverlay,
  type OverlayKind,
} from "./context-overlays.ts";

const user = (id: string, text: string): CanonicalMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const call = (id: string, name = "builtin.current_time") => ({ type: "tool-call" as const, id, name, args: {} });
const result = (callId: string, output = "12:00") => ({
  type: "tool-result" as const,
  callId,
  name: "builtin.current_time",
  output,
  isError: false,
});
let next = 0;
const overlay = (kind: OverlayKind, fields: Partial<ContextOverlay>): ContextOverlay => ({
  id: `o${++next}`,
  kind,
  messageId: null,
  callId: null,
  text: null,
  ...fields,
});

/** u1 → a1 (text + two calls) → t1 → a2 (answer) → u2 → a3 (call) → t3 (mid-turn). */
const history: Transcript = {
  system: "Be brief.",
  messages: [
    user("u1", "Time and weather?"),
    {
      id: "a1",
      role: "assistant",
      parts: [{ type: "reasoning", text: "Two lookups." }, { type: "text", text: "Checking." }, call("c1"), call("c2")],
    },
    { id: "t1", role: "tool", parts: [result("c1"), result("c2", "a very long result ".repeat(50))] },
    { id: "a2", role: "assistant", parts: [{ type: "text", text: "Noon, sunny." }] },
    user("u2", "And now?"),
    { id: "a3", role: "assistant", parts: [call("c3")] },
    { id: "t3", role: "tool", parts: [result("c3", "12:05")] },
  ],
};

const ids = (transcript: Transcript) => transcript.messages.map((message) => message.id);

describe("applyOverlays", () => {
  it("returns the transcript untouched without overlays", () => {
    const { transcript, report } = applyOverlays(history, []);
    expect(transcript).toBe(history);
    expect(report).toEqual({ excluded: [], pinned: [], replaced: [] });
  });

  it("excludes a message and never rewrites the canonical one", () => {
    const before = structuredClone(history);
    const { transcript, report } = applyOverlays(history, [overlay("exclude", { messageId: "a2" })]);
    expect(ids(transcript)).toEqual(["u1", "a1", "t1", "u2", "a3", "t3"]);
    expect(report.excluded).toEqual([{ id: "a2", label: "assistant message “Noon, sunny.”" }]);
    expect(history).toEqual(before);
  });

  it("excluding a tool message drops the calls it answers (the pair goes whole) and their reasoning", () => {
    const { transcript } = applyOverlays(history, [overlay("exclude", { messageId: "t1" })]);
    // a1 keeps its words only, and now sits next to a2: one assistant message.
    expect(ids(transcript)).toEqual(["u1", "a1", "u2", "a3", "t3"]);
    expect(transcript.messages[1]!.parts).toEqual([
      { type: "text", text: "Checking." },
      { type: "text", text: "Noon, sunny." },
    ]);
  });

  it("excluding an assistant message drops its calls' results; adjacent messages stay valid", () => {
    const { transcript } = applyOverlays(history, [overlay("exclude", { messageId: "a1" })]);
    expect(ids(transcript)).toEqual(["u1", "a2", "u2", "a3", "t3"]);
  });

  it("excludes a whole tool round by one of its calls", () => {
    const { transcript, report } = applyOverlays(history, [overlay("exclude", { callId: "c2" })]);
    expect(ids(transcript)).toEqual(["u1", "a1", "u2", "a3", "t3"]);
    expect(transcript.messages[1]).toEqual({
      id: "a1",
      role: "assistant",
      parts: [
        { type: "text", text: "Checking." },
        { type: "text", text: "Noon, sunny." },
      ],
    });
    expect(report.excluded).toEqual([{ id: "c2", label: "tool round builtin.current_time, builtin.current_time" }]);
  });

  it("merges the assistant messages an excluded user message separated", () => {
    const { transcript } = applyOverlays(history, [overlay("exclude", { messageId: "u1" })]);
    // Nothing may come before the first user message: the turn u1 started goes with it.
    expect(ids(transcript)).toEqual(["u2", "a3", "t3"]);
    const middle: Transcript = {
      messages: [user("x1", "Hi"), history.messages[3]!, user("x2", "Skip me"), history.messages[3]!, user("x3", "Go")],
    };
    const merged = applyOverlays(middle, [overlay("exclude", { messageId: "x2" })]).transcript;
    expect(merged.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("never excludes the message the request answers", () => {
    const { transcript, report } = applyOverlays(history, [overlay("exclude", { messageId: "u2" })]);
    expect(transcript.messages).toEqual(history.messages);
    expect(report.excluded).toEqual([]);
  });

  it("never ends on an assistant message that calls nothing", () => {
    const { transcript } = applyOverlays(history, [overlay("exclude", { messageId: "t3" })]);
    expect(ids(transcript)).toEqual(["u1", "a1", "t1", "a2", "u2"]);
  });

  it("pins notes, in order, just before the last user message", () => {
    const pins = [overlay("pin", { text: "Answer in French." }), overlay("pin", { text: "Use metric units." })];
    const { transcript, report } = applyOverlays(history, pins);
    expect(ids(transcript)).toEqual(["u1", "a1", "t1", "a2", `pinned-${pins[0]!.id}`, "u2", "a3", "t3"]);
    expect(transcript.messages[4]!.parts).toEqual([
      { type: "text", text: `${PINNED_NOTE_PREFIX} Answer in French.` },
      { type: "text", text: `${PINNED_NOTE_PREFIX} Use metric units.` },
    ]);
    expect(report.pinned.map((entry) => entry.label)).toEqual(["Answer in French.", "Use metric units."]);
  });

  it("replaces a tool result with the summary and reports it", () => {
    const { transcript, report } = applyOverlays(history, [
      overlay("replace", { callId: "c2", text: "Sunny, 21 °C." }),
    ]);
    const results = transcript.messages[2]!.parts as ReturnType<typeof result>[];
    expect(results[0]!.output).toBe("12:00");
    expect(results[1]).toMatchObject({ callId: "c2", output: `${SUMMARY_PREFIX}\nSunny, 21 °C.`, isError: false });
    expect(report.replaced).toEqual([{ id: "c2", label: "result of builtin.current_time" }]);
  });

  it("ignores overlays whose target is not in this request, and a replacement of an excluded result", () => {
    const { transcript, report } = applyOverlays(history, [
      overlay("exclude", { messageId: "elsewhere" }),
      overlay("exclude", { callId: "c3" }),
      overlay("replace", { callId: "c3", text: "gone anyway" }),
      overlay("replace", { callId: "nowhere", text: "?" }),
    ]);
    expect(ids(transcript)).toEqual(["u1", "a1", "t1", "a2", "u2"]);
    expect(report.excluded.map((entry) => entry.id)).toEqual(["c3"]);
    expect(report.replaced).toEqual([]);
  });
});
