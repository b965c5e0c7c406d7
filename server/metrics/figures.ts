// Figures as the page, the CSV and the tests read them, made from the summed roll-up columns that
// sql.ts returns. Rates are shares of calls (0..1); latencies are estimated from the histogram
// (latency-buckets.ts). Pure.
import { histogramPercentile } from "./latency-buckets.ts";

/** The summed tool columns of one group, as sql.ts selects them. */
export type ToolSums = {
  calls: number;
  okCalls: number;
  toolErrors: number;
  invalidArgs: number;
  timeouts: number;
  denied: number;
  cancelled: number;
  otherErrors: number;
  corrections: number;
  durationMsSum: number;
  latency: number[];
};

export type ToolFigures = {
  calls: number;
  successRate: number | null;
  errorRates: {
    toolError: number | null;
    invalidArguments: number | null;
    timeout: number | null;
    denied: number | null;
    cancelled: number | null;
    other: number | null;
  };
  errors: {
    toolError: number;
    invalidArguments: number;
    timeout: number;
    denied: number;
    cancelled: number;
    other: number;
  };
  /** Calls that succeeded right after the same tool's invalid_arguments in the previous round. */
  corrections: number;
  p50Ms: number | null;
  p95Ms: number | null;
  meanMs: number | null;
};

const share = (count: number, calls: number) => (calls === 0 ? null : count / calls);

export function toolFigures(sums: ToolSums): ToolFigures {
  const { calls } = sums;
  const errors = {
    toolError: sums.toolErrors,
    invalidArguments: sums.invalidArgs,
    timeout: sums.timeouts,
    denied: sums.denied,
    cancelled: sums.cancelled,
    other: sums.otherErrors,
  };
  return {
    calls,
    successRate: share(sums.okCalls, calls),
    errorRates: {
      toolError: share(errors.toolError, calls),
      invalidArguments: share(errors.invalidArguments, calls),
      timeout: share(errors.timeout, calls),
      denied: share(errors.denied, calls),
      cancelled: share(errors.cancelled, calls),
      other: share(errors.other, calls),
    },
    errors,
    corrections: sums.corrections,
    p50Ms: histogramPercentile(sums.latency, 0.5),
    p95Ms: histogramPercentile(sums.latency, 0.95),
    meanMs: calls === 0 ? null : sums.durationMsSum / calls,
  };
}

/** The summed turn columns of one model or provider. */
export type TurnSums = {
  turns: number;
  failedTurns: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  stepLimitTurns: number;
};

export type TurnFigures = TurnSums & { requestsPerTurn: number | null };

export function turnFigures(sums: TurnSums): TurnFigures {
  return { ...sums, requestsPerTurn: sums.turns === 0 ? null : sums.requests / sums.turns };
}
