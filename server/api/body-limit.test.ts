// The body cap: a declared body over 1 MiB is refused as too_large (413) in words; one at the cap,
// or with no declared length, passes to tRPC.
import { describe, expect, it } from "vitest";

import { isAppError } from "../errors.ts";
import { assertBodyWithinLimit, MAX_BODY_BYTES } from "./body-limit.ts";

function post(length: number | null): Request {
  const headers = new Headers({ "content-type": "application/json" });
  if (length !== null) headers.set("content-length", String(length));
  return new Request("http://localhost/api/trpc/chat.send", { method: "POST", headers });
}

describe("assertBodyWithinLimit", () => {
  it("passes a body at the cap, and one without a declared length", () => {
    expect(() => assertBodyWithinLimit(post(MAX_BODY_BYTES))).not.toThrow();
    expect(() => assertBodyWithinLimit(post(null))).not.toThrow();
  });

  it("refuses a larger declared body with 413 too_large:api in words", () => {
    let caught: unknown;
    try {
      assertBodyWithinLimit(post(MAX_BODY_BYTES + 1));
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught)).toBe(true);
    if (!isAppError(caught)) return;
    expect(caught.code).toBe("too_large:api");
    expect(caught.status).toBe(413);
    expect(caught.message).toBe("The request is too large (1 MiB at most; this one declares 1048577 bytes).");
  });
});
