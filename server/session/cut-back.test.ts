import { describe, expect, it } from "vitest";

import type { CanonicalMessage, ToolResultPart } from "../core/canonical.ts";
import { CANCELLED_BY_RESTART, cutBack } from "./cut-back.ts";

const call = (id: string) => ({ type: "tool-call" as const, id, name: "fixture.echo", args: { text: id } });
const result = (callId: string, output = `echoed ${callId}`): ToolResultPart => ({
  type: "tool-result",
  callId,
  name: "fixture.echo",
  output,
  isError: false,
});
const cancelled = (callId: string): ToolResultPart => ({
  type: "tool-result",
  callId,
  name: "fixture.echo",
  output: { error: { code: "cancelled", message: CANCELLED_BY_RESTART } },
  isError: true,
});
const assistant = (id: string, ...parts: CanonicalMessage["parts"]): CanonicalMessage =>
  ({ id, role: "assistant", parts }) as CanonicalMessage;
const tool = (id: string, ...parts: ToolResultPart[]): CanonicalMessage => ({ id, role: "tool", parts });
const text = (value: string) => ({ type: "text" as const, text: value });

describe("cutBack", () => {
  it("keeps a stored round and cuts the round whose call is still running (cancelled)", () => {
    const cut = cutBack(
      [assistant("a1", text("First."), call("c1")), tool("t1", result("c1")), assistant("a2", call("c2"))],
      [],
    );
    expect(cut.kept).toBe(1);
    expect(cut.rounds).toEqual([
      { assistantId: "a1", toolMessageId: "t1", results: [result("c1")], missing: [], isComplete: true },
      {
        assistantId: "a2",
        toolMessageId: null,
        results: [cancelled("c2")],
        missing: [cancelled("c2")],
        isComplete: false,
      },
    ]);
  });

  it("cuts partial text after the last complete round, and an empty message of a request just sent", () => {
    expect(
      cutBack([assistant("a1", call("c1")), tool("t1", result("c1")), assistant("a2", text("Half an ans"))], []).kept,
    ).toBe(1);
    expect(cutBack([assistant("a1", call("c1")), tool("t1", result("c1")), assistant("a2")], []).kept).toBe(1);
  });

  it("completes a round from its logged results when its tool message was not written yet", () => {
    const cut = cutBack([assistant("a1", call("c1"), call("c2"))], [result("c1"), result("c2")]);
    expect(cut.kept).toBe(1);
    expect(cut.rounds[0]).toMatchObject({
      toolMessageId: null,
      isComplete: true,
      missing: [result("c1"), result("c2")],
    });
  });

  it("keeps a round with one call finished and one still running, the unfinished one cancelled", () => {
    const cut = cutBack([assistant("a1", call("c1"), call("c2"))], [result("c1")]);
    expect(cut.kept).toBe(1);
    expect(cut.rounds[0]).toMatchObject({ isComplete: false, results: [result("c1"), cancelled("c2")] });
    expect(cut.rounds[0]!.missing).toEqual([result("c1"), cancelled("c2")]);
  });

  it("keeps nothing after a partly finished round, and cuts a round where nothing finished", () => {
    const partly = [assistant("a1", call("c1"), call("c2")), tool("t1", result("c1")), assistant("a2", call("c3"))];
    expect(cutBack(partly, []).kept).toBe(1);
    const afterComplete = [
      assistant("a1", call("c1")),
      tool("t1", result("c1")),
      assistant("a2", call("c2"), call("c3")),
    ];
    expect(cutBack(afterComplete, []).kept).toBe(1);
  });

  it("keeps nothing after a cut round, and nothing when the turn only wrote text", () => {
    const rounds = [assistant("a1", call("c1")), assistant("a2", call("c2")), tool("t2", result("c2"))];
    expect(cutBack(rounds, []).kept).toBe(0);
    expect(cutBack([assistant("a1", text("Hello."))], [])).toEqual({ rounds: [], kept: 0 });
  });

  it("prefers the stored result over a logged one", () => {
    const cut = cutBack([assistant("a1", call("c1")), tool("t1", result("c1", "stored"))], [result("c1", "logged")]);
    expect(cut.rounds[0]!.results).toEqual([result("c1", "stored")]);
  });
});
