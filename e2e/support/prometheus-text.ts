// Prometheus text parsed by a real parser (parse-prometheus-text-format, prom2json's shape), typed
// for the tests that check the /metrics scrape.
import parsePrometheusTextFormat from "parse-prometheus-text-format";

export type PromSample = {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
};
export type PromFamily = { name: string; help: string; type: string; metrics: PromSample[] };

export function parsePrometheusText(text: string): PromFamily[] {
  return (parsePrometheusTextFormat as (input: string) => PromFamily[])(text);
}

/** The value of the family's sample whose labels include `labels`, as a number (undefined: none). */
export function sampleValue(families: PromFamily[], name: string, labels: Record<string, string> = {}) {
  const family = families.find((candidate) => candidate.name === name);
  const sample = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return sample?.value === undefined ? undefined : Number(sample.value);
}
