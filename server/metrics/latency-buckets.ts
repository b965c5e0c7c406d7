// The latency histogram the roll-ups keep (migration `tool_metrics`, metrics_latency_bucket): 40
// buckets, bucket 0 is [0, 5] ms, bucket i is (5·1.3^(i-1), 5·1.3^i] ms, and the last also holds
// everything longer. A percentile is read from it by linear interpolation inside the bucket where it
// falls, so an estimate is within one bucket (±30 %) of the exact value; the SQL and this file must
// agree on the bounds. Pure.

export const BUCKET_COUNT = 40;
const FIRST_UPPER_MS = 5;
const GROWTH = 1.3;

/** The upper bound of a bucket, in ms (the last bucket's nominal bound). */
export function bucketUpperMs(bucket: number): number {
  return FIRST_UPPER_MS * GROWTH ** bucket;
}

/** The lower bound of a bucket, in ms. */
export function bucketLowerMs(bucket: number): number {
  return bucket === 0 ? 0 : bucketUpperMs(bucket - 1);
}

/** The bucket of a duration, as metrics_latency_bucket() computes it. */
export function latencyBucket(ms: number): number {
  const raw = Math.ceil(Math.log(Math.max(ms, 1) / FIRST_UPPER_MS) / Math.log(GROWTH));
  return Math.min(BUCKET_COUNT - 1, Math.max(0, raw));
}

/** The q-quantile (0..1) of a histogram of counts per bucket, in ms; null when it holds nothing. */
export function histogramPercentile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (const [bucket, count] of counts.entries()) {
    if (count > 0 && below + count >= rank) {
      const share = (rank - below) / count;
      const lower = bucketLowerMs(bucket);
      return lower + share * (bucketUpperMs(bucket) - lower);
    }
    below += count;
  }
  return bucketUpperMs(counts.length - 1);
}
