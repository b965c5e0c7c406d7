// Exposed tool names: always within every provider's name rule, stable for the same canonical name,
// independent of list order, and a clear error when two tools cannot be told apart.
import { describe, expect, it } from "vitest";

import {
  MAX_TOOL_NAME_LENGTH,
  ToolNameCollisionError,
  exposeToolName,
  exposeToolNames,
  exposedToolNamePattern,
  shortHash,
} from "./tool-names.ts";

describe("exposeToolName", () => {
  it.each([
    ["builtin.current_time", "builtin_current_time"],
    ["github.create-issue", "github_create-issue"],
    ["fs/read file", "fs_read_file"],
    ["1password.get", "_1password_get"],
    ["-dash.tool", "_-dash_tool"],
    ["ünïcode.tool", "_n_code_tool"],
  ])("sanitizes %s to %s", (canonical, exposed) => {
    expect(exposeToolName(canonical)).toBe(exposed);
    expect(exposeToolName(canonical)).toMatch(exposedToolNamePattern);
  });

  it("shortens long names in the middle around a stable hash of the canonical name", () => {
    const canonical = `server.${"a".repeat(40)}_${"z".repeat(40)}`;
    const exposed = exposeToolName(canonical);
    expect(exposed).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(exposed).toMatch(exposedToolNamePattern);
    expect(exposed.startsWith("server_aaa")).toBe(true);
    expect(exposed.endsWith("zzz")).toBe(true);
    expect(exposed).toContain(`_${shortHash(canonical)}_`);
    expect(exposeToolName(canonical)).toBe(exposed);
  });

  it("gives different long names that share head and tail different exposed names", () => {
    const a = `s.${"x".repeat(30)}A${"y".repeat(40)}`;
    const b = `s.${"x".repeat(30)}B${"y".repeat(40)}`;
    expect(exposeToolName(a)).not.toBe(exposeToolName(b));
  });

  it("keeps names within the 63-character limit every provider accepts", () => {
    expect(exposeToolName("x".repeat(500))).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$/);
  });
});

describe("exposeToolNames", () => {
  it("leaves names that do not collide as exposeToolName gives them", () => {
    const names = exposeToolNames(["builtin.current_time", "github.search"]);
    expect(Object.fromEntries(names)).toEqual({
      "builtin.current_time": "builtin_current_time",
      "github.search": "github_search",
    });
  });

  it("adds a hash of each canonical name to every name in a collision", () => {
    const names = exposeToolNames(["a.b", "a_b", "other.tool"]);
    expect(names.get("a.b")).toBe(`a_b_${shortHash("a.b")}`);
    expect(names.get("a_b")).toBe(`a_b_${shortHash("a_b")}`);
    expect(names.get("other.tool")).toBe("other_tool");
  });

  it("does not depend on the order of the input", () => {
    const forward = exposeToolNames(["a.b", "a_b", "a:b", "c.d"]);
    const backward = exposeToolNames(["c.d", "a:b", "a_b", "a.b"]);
    expect(Object.fromEntries(backward)).toEqual(Object.fromEntries(forward));
    expect(new Set(forward.values()).size).toBe(4);
  });

  it("keeps disambiguated long names within the limit", () => {
    const long = `s.${"n".repeat(80)}`;
    const names = exposeToolNames([long, long.replace(".", "_")]);
    for (const exposed of names.values()) expect(exposed).toMatch(exposedToolNamePattern);
    expect(new Set(names.values()).size).toBe(2);
  });

  it("throws a clear error when a collision cannot be resolved", () => {
    const clash = `a_b_${shortHash("a.b")}`;
    expect(() => exposeToolNames(["a.b", "a_b", clash])).toThrow(ToolNameCollisionError);
    expect(() => exposeToolNames(["a.b", "a_b", clash])).toThrow(/"a\.b".*would all be shown to the model as/);
  });

  it("treats a repeated canonical name as one tool", () => {
    expect(exposeToolNames(["x.y", "x.y"]).get("x.y")).toBe("x_y");
  });
});
