// The policy rules as a table: a tool's own policy beats its connector's, stored overrides are read
// leniently, and a persona allowlist admits exact names, `server.*` and `*`, and nothing else.
import { describe, expect, it } from "vitest";

import { allowlistEntrySchema, effectivePolicy, isAllowedByPersona, parseToolPolicies } from "./tool-policy.ts";

describe("effectivePolicy", () => {
  it.each([
    ["allow", {}, "echo", "allow"],
    ["ask", {}, "echo", "ask"],
    ["ask", { echo: "allow" }, "echo", "allow"],
    ["allow", { echo: "deny" }, "echo", "deny"],
    ["deny", { echo: "ask" }, "echo", "ask"],
    ["deny", { other: "allow" }, "echo", "deny"],
  ] as const)("connector %s with overrides %j gives %s for %s: %s", (policy, toolPolicies, tool, expected) => {
    expect(effectivePolicy({ policy, toolPolicies }, tool)).toBe(expected);
  });

  it("ignores overrides that are not a known policy", () => {
    expect(effectivePolicy({ policy: "ask", toolPolicies: { echo: "sometimes" } }, "echo")).toBe("ask");
    expect(parseToolPolicies({ a: "allow", b: 3, c: null, d: "deny" })).toEqual({ a: "allow", d: "deny" });
    for (const junk of [null, undefined, "allow", ["allow"], 7]) expect(parseToolPolicies(junk)).toEqual({});
  });
});

describe("isAllowedByPersona", () => {
  it("admits every tool without a persona, and none with an empty allowlist", () => {
    expect(isAllowedByPersona(null, "fixture.echo")).toBe(true);
    expect(isAllowedByPersona([], "builtin.current_time")).toBe(false);
  });

  it.each([
    [["*"], "fixture.files/read.v2", true],
    [["fixture.*"], "fixture.echo", true],
    [["fixture.*"], "fixture2.echo", false],
    [["fixture.*"], "builtin.current_time", false],
    [["builtin.current_time"], "builtin.current_time", true],
    [["builtin.current_time"], "builtin.current_time_v2", false],
    [["fixture.echo"], "fixture.echo2", false],
    [["fixture.files/read.*"], "fixture.files/read.v2", false], // only whole servers are globbed
    [["fixture.files/read.*"], "fixture.files/read.*", true],
  ])("%j admits %s: %s", (allowlist, name, expected) => {
    expect(isAllowedByPersona(allowlist, name)).toBe(expected);
  });
});

describe("allowlistEntrySchema", () => {
  it.each(["*", "fixture.*", "builtin.current_time", "fixture.files/read.v2", "  my-server.tool  "])(
    "accepts %j",
    (entry) => {
      expect(allowlistEntrySchema.safeParse(entry).success).toBe(true);
    },
  );

  it.each(["", "echo", ".echo", "fix ture.echo", "*.echo", "fixture.", "x".repeat(41) + ".tool"])(
    "rejects %j",
    (entry) => {
      expect(allowlistEntrySchema.safeParse(entry).success).toBe(false);
    },
  );
});
