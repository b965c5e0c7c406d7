import { describe, expect, it } from "vitest";

import { bucketLowerMs, bucketUpperMs, histogramPercentile, latencyBucket } from "./latency-buckets.ts";

describe("latency buckets", () => {
  it("puts a duration in the bucket whose bounds hold it", () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(5)).toBe(0);
    expect(latencyBucket(6)).toBe(1);
    expect(latencyBucket(6.5)).toBe(1);
    expect(latencyBucket(100)).toBe(12); // 5·1.3^11 ≈ 89.6 < 100 ≤ 5·1.3^12 ≈ 116.5
    expect(latencyBucket(10_000_000)).toBe(39);
    for (const ms of [1, 7, 42, 250, 1_000, 30_000]) {
      const bucket = latencyBucket(ms);
      expect(ms).toBeGreaterThan(bucketLowerMs(bucket) - (bucket === 0 ? 1 : 0));
      expect(ms).toBeLessThanOrEqual(bucketUpperMs(bucket) + 1e-9);
    }
  });

  it("interpolates a percentile inside its bucket", () => {
    const counts = Array.from({ length: 40 }, () => 0);
    counts[12] = 4; // four calls in (89.6, 116.5] ms
    expect(histogramPercentile(counts, 0.5)).toBeCloseTo(
      bucketLowerMs(12) + 0.5 * (bucketUpperMs(12) - bucketLowerMs(12)),
    );
    counts[20] = 4;
    expect(histogramPercentile(counts, 0.5)).toBeCloseTo(bucketUpperMs(12));
    expect(histogramPercentile(counts, 1)).toBeCloseTo(bucketUpperMs(20));
  });

  it("has no percentile for an empty histogram", () => {
    expect(
      histogramPercentile(
        Array.from({ length: 40 }, () => 0),
        0.95,
      ),
    ).toBeNull();
  });
});
