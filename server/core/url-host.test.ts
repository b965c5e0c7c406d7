import { describe, expect, it } from "vitest";

import { urlHost } from "./url-host.ts";

describe("urlHost", () => {
  it.each([
    ["::1", "[::1]"],
    ["fe80::1", "[fe80::1]"],
    ["[::1]", "[::1]"],
    ["127.0.0.1", "127.0.0.1"],
    ["chat.example.com", "chat.example.com"],
    ["localhost", "localhost"],
  ])("writes %s as %s", (hostname, written) => {
    expect(urlHost(hostname)).toBe(written);
    expect(new URL(`http://${urlHost(hostname)}:3000/`).port).toBe("3000");
  });
});
