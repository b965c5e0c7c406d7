import { describe, expect, it } from "vitest";

import { describeToolStatus, toolErrorOf, toolStatusLabels, type ToolStatus } from "./tool-status.ts";

const ok = { output: "5", isError: false };
const failed = (code: string) => ({ output: { error: { code, message: `${code} happened` } }, isError: true });

describe("describeToolStatus", () => {
  const cases: [string, Parameters<typeof describeToolStatus>[0], ToolStatus][] = [
    [
      "a call of a live turn without result runs",
      { result: undefined, approval: undefined, turnStatus: "streaming" },
      "running",
    ],
    [
      "a pending approval of a live turn waits",
      { result: undefined, approval: "pending", turnStatus: "streaming" },
      "waiting",
    ],
    ["a result is done", { result: ok, approval: undefined, turnStatus: "completed" }, "done"],
    [
      "an error result is an error",
      { result: failed("failed"), approval: undefined, turnStatus: "completed" },
      "error",
    ],
    ["a denial result is denied", { result: failed("denied"), approval: undefined, turnStatus: "completed" }, "denied"],
    ["a denied approval is denied", { result: undefined, approval: "denied", turnStatus: "streaming" }, "denied"],
    [
      "a cancelled result is cancelled",
      { result: failed("cancelled"), approval: undefined, turnStatus: "completed" },
      "cancelled",
    ],
    ["Stop while it ran cancels it", { result: undefined, approval: undefined, turnStatus: "cancelled" }, "cancelled"],
    [
      "Apply now while it ran cancels it",
      { result: undefined, approval: "approved", turnStatus: "superseded" },
      "cancelled",
    ],
    [
      "a server stop interrupts it",
      { result: undefined, approval: undefined, turnStatus: "interrupted" },
      "interrupted",
    ],
    [
      "an approval the turn outlived is undecided",
      { result: undefined, approval: "expired", turnStatus: "cancelled" },
      "undecided",
    ],
    ["a failed turn leaves no result", { result: undefined, approval: undefined, turnStatus: "failed" }, "no-result"],
  ];
  it.each(cases)("%s", (_, input, expected) => {
    expect(describeToolStatus(input)).toBe(expected);
  });

  it("gives every status its own words", () => {
    const labels = Object.values(toolStatusLabels);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe("toolErrorOf", () => {
  it("reads the code and message of an error output", () => {
    expect(toolErrorOf(failed("invalid_arguments").output)).toEqual({
      code: "invalid_arguments",
      message: "invalid_arguments happened",
    });
  });

  it("is null for any other output", () => {
    expect(toolErrorOf("plain text")).toBeNull();
    expect(toolErrorOf(null)).toBeNull();
    expect(toolErrorOf({ error: "not an object" })).toBeNull();
  });
});
