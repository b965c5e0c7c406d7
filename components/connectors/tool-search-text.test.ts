import { describe, expect, it } from "vitest";

import type { SessionToolDto } from "@/server/mcp/session-tools.ts";

import { matchesTool } from "./tool-list.tsx";
import { searchTextOf } from "./tool-search-text.ts";

function tool(name: string, description: string): SessionToolDto {
  return { name, exposedName: null, description, enabled: true, policy: "allow", policyOverride: null };
}

describe("the Tools panel's search", () => {
  it("matches a tool's name or description, whatever their case", () => {
    const readFile = tool("fs.Read_File", "Reads a FILE from disk");
    expect(matchesTool(readFile, "read_f")).toBe(true);
    expect(matchesTool(readFile, "  FROM DISK ")).toBe(true);
    expect(matchesTool(readFile, "write")).toBe(false);
    expect(matchesTool(readFile, "")).toBe(true);
  });

  it("never matches across the end of the name and the start of the description", () => {
    expect(matchesTool(tool("read", "file"), "readfile")).toBe(false);
  });

  it("keeps a tool's text for that tool object only", () => {
    const first = tool("Echo", "Says it back");
    expect(searchTextOf(first)).toBe("echo\nsays it back");
    // A tool that changed arrives as a new object (the query cache replaces it) and gets its own text.
    expect(searchTextOf({ ...first, description: "Repeats" })).toBe("echo\nrepeats");
  });
});
