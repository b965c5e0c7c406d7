// The S256 challenge must match RFC 7636's own test vector, and verifiers and states must be fresh.
import { describe, expect, it } from "vitest";

import { challengeOf, createPkce, createState } from "./pkce.ts";

describe("PKCE", () => {
  it("computes the RFC 7636 appendix B challenge", () => {
    expect(challengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("makes a 43-character verifier with its challenge, different every time", () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(challengeOf(a.verifier));
    expect(a.method).toBe("S256");
    expect(a.verifier).not.toBe(b.verifier);
    expect(createState()).not.toBe(createState());
  });
});
