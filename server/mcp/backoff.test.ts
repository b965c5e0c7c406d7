import { describe, expect, it } from "vitest";

import { ReconnectBackoff } from "./backoff.ts";

describe("ReconnectBackoff", () => {
  it("waits 0.5 s after a failure, doubling with each further failure up to 30 s", () => {
    const backoff = new ReconnectBackoff(() => 0);
    const delays = Array.from({ length: 9 }, () => backoff.nextDelay());
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("starts the ladder again after a connection that stayed up for 10 s, not after a shorter one", () => {
    let now = 0;
    const backoff = new ReconnectBackoff(() => now);
    backoff.nextDelay();
    backoff.nextDelay();
    backoff.nextDelay(); // 2 s next

    backoff.connected();
    now += 9_999; // up for just under 10 s
    expect(backoff.nextDelay()).toBe(4_000);

    backoff.connected();
    now += 10_000;
    expect(backoff.nextDelay()).toBe(500);
    expect(backoff.nextDelay()).toBe(1_000); // a failed reconnect does not reset it again
  });
});
