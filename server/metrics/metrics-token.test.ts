import { describe, expect, it } from "vitest";

import { hasMetricsToken } from "./metrics-token.ts";

describe("the /metrics bearer token", () => {
  const token = "a-long-metrics-token-1234";

  it("accepts exactly the configured token", () => {
    expect(hasMetricsToken(`Bearer ${token}`, token)).toBe(true);
    expect(hasMetricsToken(`bearer ${token}`, token)).toBe(true);
  });

  it("refuses no header, another scheme, and a wrong or partial token", () => {
    expect(hasMetricsToken(null, token)).toBe(false);
    expect(hasMetricsToken(`Basic ${token}`, token)).toBe(false);
    expect(hasMetricsToken("Bearer wrong", token)).toBe(false);
    expect(hasMetricsToken(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(hasMetricsToken("Bearer ", token)).toBe(false);
  });
});
