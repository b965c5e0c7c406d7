import { describe, expect, it } from "vitest";

import { findNameClashes } from "./name-clashes.ts";

describe("findNameClashes", () => {
  it("leaves out the user's connector named like the admin's (in any case), whatever the order", () => {
    const clashes = findNameClashes([
      { connectorId: "u1", name: "GitHub", source: "user" },
      { connectorId: "a1", name: "github", source: "admin" },
      { connectorId: "u2", name: "linear", source: "user" },
    ]);
    expect([...clashes.keys()]).toEqual(["u1"]);
    expect(clashes.get("u1")).toBe(
      'Left out: the administrator\'s connector "github" has the same name, so their tool names would clash. Rename it in Settings → Connectors to use it here.',
    );
  });

  it('leaves out any connector named "builtin", which belongs to the built-in tools', () => {
    const clashes = findNameClashes([{ connectorId: "u1", name: "Builtin", source: "user" }]);
    expect(clashes.get("u1")).toMatch(/^Left out: "builtin" is reserved for Patchbay's built-in tools\./);
  });

  it("finds nothing when every name is distinct", () => {
    expect(
      findNameClashes([
        { connectorId: "a", name: "a", source: "admin" },
        { connectorId: "b", name: "b", source: "user" },
      ]).size,
    ).toBe(0);
  });
});
