// Which calls of one response run: the per-response cap first (in call order), then what is left of
// the per-minute budget; and the messages the model and the user are given when a limit stops one.
import { describe, expect, it } from "vitest";

import { limitMessage, limitResult, planToolCalls } from "./limits.ts";

describe("planToolCalls", () => {
  it("runs everything under both limits", () => {
    expect(planToolCalls(3, { perResponse: 8, perMinute: 30 }, 0)).toEqual(["run", "run", "run"]);
    expect(planToolCalls(0, { perResponse: 8, perMinute: 30 }, 29)).toEqual([]);
  });

  it("skips the calls after the per-response cap", () => {
    expect(planToolCalls(4, { perResponse: 2, perMinute: 30 }, 0)).toEqual([
      "run",
      "run",
      "tool_calls_per_response",
      "tool_calls_per_response",
    ]);
  });

  it("rate-limits once the minute's budget, counting earlier calls, is spent", () => {
    expect(planToolCalls(3, { perResponse: 8, perMinute: 5 }, 3)).toEqual(["run", "run", "tool_calls_per_minute"]);
    expect(planToolCalls(2, { perResponse: 8, perMinute: 5 }, 9)).toEqual([
      "tool_calls_per_minute",
      "tool_calls_per_minute",
    ]);
  });

  it("applies the per-response cap first: skipped calls do not spend the minute's budget", () => {
    expect(planToolCalls(4, { perResponse: 3, perMinute: 2 }, 0)).toEqual([
      "run",
      "run",
      "tool_calls_per_minute",
      "tool_calls_per_response",
    ]);
  });
});

describe("limit results", () => {
  it("tells the model which limit stopped the call and how large it is", () => {
    const perMinute = limitResult("tool_calls_per_minute", 30);
    expect(perMinute.isError).toBe(true);
    expect(perMinute.output).toMatchObject({ error: { code: "rate_limited" } });
    expect(JSON.stringify(perMinute.output)).toContain('"message":"rate limited: 30 calls per minute');
    const perResponse = limitResult("tool_calls_per_response", 8);
    expect(perResponse.output).toMatchObject({ error: { code: "too_many_calls" } });
    expect(JSON.stringify(perResponse.output)).toContain("at most 8 run per response");
    expect(limitMessage("steps", 4)).toContain("Stopped after 4 model requests");
  });
});
