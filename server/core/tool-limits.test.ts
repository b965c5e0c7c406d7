import { describe, expect, it } from "vitest";

import { providerToolLimits, requestBytes, toolLimitProblem } from "./tool-limits.ts";

const MB = 1024 * 1024;

describe("toolLimitProblem", () => {
  it.each(["openai", "google", "openai-compatible"] as const)(
    "%s: 128 tools pass, 129 are refused in words",
    (provider) => {
      expect(toolLimitProblem(provider, { toolCount: 128, requestBytes: 1_000 })).toBeNull();
      const problem = toolLimitProblem(provider, { toolCount: 129, requestBytes: 1_000 });
      expect(problem).toMatch(/^This chat offers the model 129 tools; .+ accepts at most 128 in one request\. /);
      expect(problem).toContain(
        "Switch connectors or tools off in the Tools panel, or pick a persona with fewer tools",
      );
    },
  );

  it("counts 1,016 tools the way a user reads them", () => {
    expect(toolLimitProblem("openai", { toolCount: 1_016, requestBytes: 0 })).toContain("1,016 tools; OpenAI accepts");
  });

  it("Anthropic documents no tool count, only its 32 MB request", () => {
    expect(toolLimitProblem("anthropic", { toolCount: 5_000, requestBytes: 32 * MB })).toBeNull();
    expect(toolLimitProblem("anthropic", { toolCount: 1, requestBytes: 32 * MB + 1 })).toBe(
      "This chat's request would be 32.0 MB; Anthropic accepts at most 32.0 MB. Switch connectors or tools with long descriptions or schemas off in the Tools panel, or start a new chat, then send again.",
    );
  });

  it("Gemini refuses a request over 20 MB", () => {
    expect(toolLimitProblem("google", { toolCount: 3, requestBytes: 20 * MB })).toBeNull();
    expect(toolLimitProblem("google", { toolCount: 3, requestBytes: 21 * MB })).toMatch(
      /21\.0 MB; Gemini accepts at most 20\.0 MB/,
    );
  });

  it("has a row for every provider", () => {
    expect(Object.keys(providerToolLimits).sort()).toEqual(["anthropic", "google", "openai", "openai-compatible"]);
  });
});

describe("requestBytes", () => {
  it("measures the JSON in UTF-8 bytes", () => {
    expect(requestBytes({ a: "é" })).toBe(Buffer.byteLength('{"a":"é"}'));
  });
});
