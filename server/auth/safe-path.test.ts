// Every redirect target from a request goes through safeReturnPath: these are the forms a browser
// would follow off-site (and a few that look alarming but stay on the site).
import { describe, expect, it } from "vitest";

import { safeRedirectUrl, safeReturnPath } from "./safe-path.ts";

describe("safeReturnPath", () => {
  it.each([
    ["/", "/"],
    ["/s/abc", "/s/abc"],
    ["/settings/providers?tab=1#keys", "/settings/providers?tab=1#keys"],
    ["/api/mcp-oauth/callback?code=a&state=b", "/api/mcp-oauth/callback?code=a&state=b"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/a/../b", "/b"],
    ["/ /evil.example", "/%20/evil.example"],
  ])("keeps the same-site path %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/.//evil.example",
    "/x/..//evil.example",
    "https://evil.example/",
    "http:evil.example",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "",
    "evil.example",
  ])("refuses %j", (input) => {
    const result = safeReturnPath(input);
    expect(result).toBe("/");
    // Whatever came back, a browser resolves it on the site itself.
    expect(new URL(result, "https://chat.example.com").origin).toBe("https://chat.example.com");
  });

  it("refuses what is not a string, with the fallback given", () => {
    expect(safeReturnPath(null)).toBe("/");
    expect(safeReturnPath(["/a"], "/sign-in")).toBe("/sign-in");
  });

  it("keeps decoded query-string forms that arrive from URLSearchParams off-site", () => {
    const params = new URLSearchParams("callbackUrl=%2F%2Fevil.example&b=%2F%5Cevil.example");
    expect(safeReturnPath(params.get("callbackUrl"))).toBe("/");
    expect(safeReturnPath(params.get("b"))).toBe("/");
  });
});

describe("safeRedirectUrl (Auth.js redirect callback)", () => {
  const base = "https://chat.example.com";
  it("keeps paths and same-origin URLs", () => {
    expect(safeRedirectUrl("/s/1", base)).toBe("https://chat.example.com/s/1");
    expect(safeRedirectUrl("https://chat.example.com/settings", base)).toBe("https://chat.example.com/settings");
  });
  it.each(["https://evil.example/", "//evil.example", "/\\evil.example", "https://chat.example.com.evil.example/"])(
    "sends %j to the root",
    (url) => {
      expect(safeRedirectUrl(url, base)).toBe("https://chat.example.com/");
    },
  );
});
