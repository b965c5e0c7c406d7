import { describe, expect, it } from "vitest";

import { splitAtSeparators } from "./tool-name.tsx";

describe("splitAtSeparators", () => {
  it("cuts after dots, underscores, slashes and dashes and keeps every character", () => {
    expect(splitAtSeparators("fs.read_file")).toEqual(["fs.", "read_", "file"]);
    expect(splitAtSeparators("github/repos.list-issues")).toEqual(["github/", "repos.", "list-", "issues"]);
  });

  it("keeps runs of separators together and a name without any whole", () => {
    expect(splitAtSeparators("a__b")).toEqual(["a__", "b"]);
    expect(splitAtSeparators("echo")).toEqual(["echo"]);
    expect(splitAtSeparators("_lead")).toEqual(["_", "lead"]);
  });

  it("joins back to the name", () => {
    const name = "mcp_server.tool/with-many_parts";
    expect(splitAtSeparators(name).join("")).toBe(name);
  });
});
