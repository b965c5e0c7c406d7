import { describe, expect, it } from "vitest";

import { filterSessionsByTitle } from "./filter-sessions.ts";

const sessions = [
  { id: "1", title: "Trip to Zürich" },
  { id: "2", title: "Quarterly PLANS" },
  { id: "3", title: "New chat" },
];

describe("filterSessionsByTitle", () => {
  it("keeps everything for an empty or blank query", () => {
    expect(filterSessionsByTitle(sessions, "")).toEqual(sessions);
    expect(filterSessionsByTitle(sessions, "   ")).toEqual(sessions);
  });

  it("ignores case and accents", () => {
    expect(filterSessionsByTitle(sessions, "zurich").map((s) => s.id)).toEqual(["1"]);
    expect(filterSessionsByTitle(sessions, "plans").map((s) => s.id)).toEqual(["2"]);
  });

  it("needs every word, in any order", () => {
    expect(filterSessionsByTitle(sessions, "plans quarterly").map((s) => s.id)).toEqual(["2"]);
    expect(filterSessionsByTitle(sessions, "plans trip")).toEqual([]);
  });
});
