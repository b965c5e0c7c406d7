// What users paste back comes in three shapes; each must give the code (and the state when present).
import { describe, expect, it } from "vitest";

import { AppError } from "../../errors.ts";
import { parsePastedCode } from "./pasted-code.ts";

describe("parsePastedCode", () => {
  it("splits code#state, takes a bare code, and reads a callback URL", () => {
    expect(parsePastedCode("  abc123#st-9 ")).toEqual({ code: "abc123", state: "st-9" });
    expect(parsePastedCode("4/0AbCd")).toEqual({ code: "4/0AbCd" });
    expect(parsePastedCode("https://x.test/cb?code=c1&state=s1")).toEqual({ code: "c1", state: "s1" });
  });

  it("refuses blanks and text with spaces", () => {
    expect(() => parsePastedCode("   ")).toThrow(AppError);
    expect(() => parsePastedCode("not a code")).toThrow(AppError);
  });
});
