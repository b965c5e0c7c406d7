// The policy the browser enforces: scripts only with this request's nonce, images only from the app
// or data: URLs, no framing; and the other headers every response carries.
import { describe, expect, it } from "vitest";

import { contentSecurityPolicy, createNonce, securityHeaders } from "./security-headers.ts";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("security headers", () => {
  it("allows scripts only with the nonce (no unsafe-inline / unsafe-eval in production)", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "abc123==", isDevelopment: false }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
  });

  it("adds unsafe-eval only in development", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "n", isDevelopment: true }));
    expect(policy.get("script-src")).toContain("'unsafe-eval'");
  });

  it("loads images only from the app and data: URLs, and connects only to the app", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "n", isDevelopment: false }));
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    for (const values of policy.values()) expect(values.some((value) => /^https?:|^\*$/.test(value))).toBe(false);
  });

  it("sets the other headers", () => {
    expect(securityHeaders({ nonce: "n", isDevelopment: false })).toMatchObject({
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
    });
  });

  it("makes a fresh, unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
