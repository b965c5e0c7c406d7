// Waiting out a short database outage on the turn's write path. A write that fails because the
// database cannot be reached (database-unavailable.ts) is tried again with backoff for up to
// `budgetMs` (the same budget as the streamed deltas, event-log.ts); any other failure, or one
// past the budget, is thrown. Only for writes that are safe to repeat: finishing a turn is (it
// changes only a turn still streaming); a request's bookkeeping is, except in the rare case where a
// statement committed and the connection broke before its answer, when its events would repeat.
import { setTimeout as sleep } from "node:timers/promises";

import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { DELTA_OUTAGE_BUDGET_MS } from "./event-log.ts";

const DELAYS_MS = [100, 250, 500, 1_000, 2_000];

export async function retryWhileDatabaseUnavailable<T>(
  write: () => Promise<T>,
  budgetMs = DELTA_OUTAGE_BUDGET_MS,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() - started >= budgetMs) throw error;
      await sleep(DELAYS_MS[Math.min(attempt, DELAYS_MS.length - 1)]);
    }
  }
}
