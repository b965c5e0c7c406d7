// How the metrics page writes its figures: shares as percentages, durations in ms or s, counts
// with thousands separators; a missing figure (no calls) as a dash. Pure.

export const formatRate = (rate: number | null) => (rate === null ? "–" : `${(rate * 100).toFixed(1)} %`);

export const formatMs = (ms: number | null) =>
  ms === null ? "–" : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export const formatCount = (count: number | null) => (count === null ? "–" : Math.round(count).toLocaleString("en"));

export const formatRatio = (ratio: number | null) => (ratio === null ? "–" : ratio.toFixed(2));
