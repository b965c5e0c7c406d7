import { describe, expect, it } from "vitest";

import { AppError } from "../errors.ts";
import { shortHash } from "../core/tool-names.ts";
import { binding, builtins, source } from "./compose-fixtures.ts";
import { composeTools } from "./compose-tools.ts";

describe("composeTools", () => {
  const lists = new Map([
    ["gh", source("github", ["search", "create_issue", "delete_repo", "constructor"])],
    ["ln", source("linear", ["search"])],
  ]);

  it("lists built-ins first, then each switched-on connector's tools in binding and list order", () => {
    const tools = composeTools(builtins, [binding("ln"), binding("gh")], lists, null);
    expect(tools.map((tool) => tool.canonicalName)).toEqual([
      "builtin.current_time",
      "linear.search",
      "github.search",
      "github.create_issue",
      "github.delete_repo",
      "github.constructor",
    ]);
    expect(tools.find((tool) => tool.canonicalName === "github.search")).toMatchObject({
      connectorId: "gh",
      toolName: "search",
      exposedName: "github_search",
      policy: "allow",
    });
  });

  it("leaves out switched-off connectors and tools, denied tools and tools outside the allowlist", () => {
    const bindings = [
      binding("gh", {
        disabledTools: ["search"],
        policy: "ask",
        toolPolicies: { delete_repo: "deny", constructor: "allow" },
      }),
      binding("ln", { enabled: false }),
    ];
    const tools = composeTools(builtins, bindings, lists, ["github.*"]);
    expect(tools.map((tool) => [tool.canonicalName, tool.policy])).toEqual([
      ["github.create_issue", "ask"],
      ["github.constructor", "allow"],
    ]);
  });

  it("tells colliding names apart by a hash of each canonical name, and refuses a set it cannot", () => {
    const clash = new Map([
      ["a", source("a", ["b_c"])],
      ["b", source("a_b", ["c"])],
    ]);
    const tools = composeTools(builtins, [binding("a"), binding("b")], clash, null);
    expect(tools.slice(1).map((tool) => tool.exposedName)).toEqual([
      `a_b_c_${shortHash("a.b_c")}`,
      `a_b_c_${shortHash("a_b.c")}`,
    ]);
    // A third tool literally named like one of those disambiguated names.
    clash.set("b", source("a_b", ["c", `c_${shortHash("a.b_c")}`]));
    expect(() => composeTools(builtins, [binding("a"), binding("b")], clash, null)).toThrow(AppError);
  });

  it("never merges connectors that share a name: the admin's wins, the user's is left out with all its tools", () => {
    const named = new Map([
      ["admin-gh", source("github", ["search"])],
      ["user-gh", source("github", ["search", "delete_repo"])],
      ["user-bi", source("builtin", ["current_time"])],
    ]);
    const bindings = [
      binding("user-gh", { name: "github" }), // bound first: order must not decide
      binding("admin-gh", { name: "github", source: "admin" }),
      binding("user-bi", { name: "builtin" }),
    ];

    const tools = composeTools(builtins, bindings, named, null);

    expect(tools.map((tool) => [tool.canonicalName, tool.connectorId])).toEqual([
      ["builtin.current_time", "builtin"],
      ["github.search", "admin-gh"],
    ]);
  });

  it("keeps a user's connector once the admin one with its name is switched off", () => {
    const named = new Map([
      ["admin-gh", source("github", ["search"])],
      ["user-gh", source("github", ["search"])],
    ]);
    const bindings = [
      binding("admin-gh", { name: "github", source: "admin", enabled: false }),
      binding("user-gh", { name: "GitHub" }),
    ];
    expect(composeTools(builtins, bindings, named, null).map((tool) => tool.connectorId)).toEqual([
      "builtin",
      "user-gh",
    ]);
  });
});
