import { describe, expect, it } from "vitest";

import {
  browserLoopbackUrl,
  canonicalLoopbackOrigin,
  isLoopbackHostname,
  withBrowserLoopbackHost,
} from "./loopback-host.ts";

describe("browserLoopbackUrl", () => {
  const renamed = "http://localhost:3000/api/auth/callback/local?code=abc&state=xyz";

  it("puts back the 127.0.0.1 the browser used, path and query unchanged", () => {
    expect(browserLoopbackUrl(renamed, "127.0.0.1:3000")?.href).toBe(
      "http://127.0.0.1:3000/api/auth/callback/local?code=abc&state=xyz",
    );
  });

  it("puts back [::1]", () => {
    expect(browserLoopbackUrl(renamed, "[::1]:3000")?.host).toBe("[::1]:3000");
  });

  it("leaves localhost, other ports, other hosts and bad headers alone", () => {
    expect(browserLoopbackUrl(renamed, "localhost:3000")).toBeNull();
    expect(browserLoopbackUrl(renamed, "127.0.0.1:4000")).toBeNull();
    expect(browserLoopbackUrl(renamed, "evil.example:3000")).toBeNull();
    expect(browserLoopbackUrl(renamed, "10.0.0.5:3000")).toBeNull();
    expect(browserLoopbackUrl(renamed, "bad host")).toBeNull();
    expect(browserLoopbackUrl(renamed, null)).toBeNull();
    expect(browserLoopbackUrl("https://chat.example.com/api/auth/session", "127.0.0.1")).toBeNull();
  });
});

describe("withBrowserLoopbackHost", () => {
  it("keeps method, headers and body", async () => {
    const original = new Request("http://localhost:3000/api/auth/signout", {
      method: "POST",
      headers: { host: "127.0.0.1:3000", "content-type": "application/x-www-form-urlencoded" },
      body: "csrfToken=t",
    });
    const fixed = withBrowserLoopbackHost(original);
    expect(fixed.url).toBe("http://127.0.0.1:3000/api/auth/signout");
    expect(fixed.method).toBe("POST");
    expect(fixed.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(await fixed.text()).toBe("csrfToken=t");
  });

  it("returns the same request when there is nothing to undo", () => {
    const request = new Request("http://localhost:3000/api/auth/session", { headers: { host: "localhost:3000" } });
    expect(withBrowserLoopbackHost(request)).toBe(request);
  });
});

it("isLoopbackHostname", () => {
  expect(["127.0.0.1", "127.1.2.3", "[::1]", "localhost"].every(isLoopbackHostname)).toBe(true);
  expect(["10.0.0.1", "localhost.example", "::1", "example.com"].some(isLoopbackHostname)).toBe(false);
});

describe("canonicalLoopbackOrigin", () => {
  it("sends a browser on 127.0.0.1 to the localhost that AUTH_URL names, and the reverse", () => {
    expect(canonicalLoopbackOrigin("http://localhost:3000", "127.0.0.1:3000")).toBe("http://localhost:3000");
    expect(canonicalLoopbackOrigin("http://127.0.0.1:3000/", "localhost:3000")).toBe("http://127.0.0.1:3000");
  });

  it("does nothing without AUTH_URL, on the canonical name, off loopback or on another port", () => {
    expect(canonicalLoopbackOrigin(undefined, "127.0.0.1:3000")).toBeNull();
    expect(canonicalLoopbackOrigin("http://localhost:3000", "localhost:3000")).toBeNull();
    expect(canonicalLoopbackOrigin("https://chat.example.com", "127.0.0.1:3000")).toBeNull();
    expect(canonicalLoopbackOrigin("http://localhost:3000", "evil.example:3000")).toBeNull();
    expect(canonicalLoopbackOrigin("http://localhost:3000", "127.0.0.1:4000")).toBeNull();
  });
});
