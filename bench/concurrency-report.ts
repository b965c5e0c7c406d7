// Turns what the concurrency bench recorded into figures. Per session it compares three views of
// the same scripted chunks: the script, what Patchbay's HTTP client read from the provider (the
// probe), and what the session's subscriber received as text.delta events, and then what was
// stored in the assistant message. "Added inter-chunk p99" is the subscriber's inter-arrival p99
// minus the provider's own (scripted) inter-chunk interval; a second row subtracts the provider's
// gap p99 as Patchbay read it instead, which itself grows once Patchbay falls behind and reads in
// bursts. "Per-chunk delay" follows each chunk from the probe to the text.delta that carried it.
// Prints; never fails.
import type { Db } from "../server/db/client.ts";
import { messageText } from "../e2e/support/testbeds/engine.ts";
import type { LoadFigures } from "./load-monitor.ts";
import type { BenchOptions } from "./options.ts";
import type { ProbedChunk } from "./provider-probe.ts";
import type { SessionWatch } from "./session-watch.ts";
import { sessionChunks } from "./slow-reply.ts";
import { ms, printNotes, printTable, summarize } from "./stats.ts";

export type SessionRun = {
  index: number;
  sessionId: string;
  calledAt: number;
  watch: SessionWatch;
  startError: string | null;
};

export type ConcurrencyResult = {
  runs: SessionRun[];
  start: number;
  isAllFinished: boolean;
  probe: { chunksOf(index: number): ProbedChunk[]; requestedAt(index: number): number | undefined };
  fakeWhere: string;
  load: LoadFigures & { transactions: number };
};

type SessionFigures = {
  lostAtSubscriber: number;
  lostAtProvider: number;
  isGarbled: boolean;
  providerGaps: number[];
  subscriberGaps: number[];
  chunkDelays: number[];
  deltaEvents: number;
  ttft: number | null;
  requestDelay: number | null;
  duration: number | null;
};

const gaps = (times: number[]) => times.slice(1).map((at, i) => at - times[i]!);

/** How many of `chunks` arrived intact, in order, at the start of `received`. */
function deliveredChunks(chunks: string[], received: string): number {
  let offset = 0;
  let count = 0;
  for (const chunk of chunks) {
    if (received.slice(offset, offset + chunk.length) !== chunk) break;
    offset += chunk.length;
    count++;
  }
  return count;
}

function analyzeSession(
  run: SessionRun,
  chunks: string[],
  probed: ProbedChunk[],
  requestedAt: number | undefined,
): SessionFigures {
  const deltas = run.watch.deltas;
  const received = deltas.map((delta) => delta.text).join("");
  const delivered = deliveredChunks(chunks, received);
  const chunkDelays: number[] = [];
  let eventIndex = 0;
  let receivedEnd = deltas[0]?.text.length ?? 0;
  let chunkEnd = 0;
  for (let j = 0; j < delivered; j++) {
    chunkEnd += chunks[j]!.length;
    while (receivedEnd < chunkEnd && eventIndex + 1 < deltas.length) receivedEnd += deltas[++eventIndex]!.text.length;
    const readAt = probed[j]?.at;
    if (readAt !== undefined) chunkDelays.push(deltas[eventIndex]!.at - readAt);
  }
  const finishedAt = run.watch.finishedAt();
  return {
    lostAtSubscriber: chunks.length - delivered,
    lostAtProvider: chunks.length - deliveredChunks(chunks, probed.map((chunk) => chunk.text).join("")),
    isGarbled: received !== chunks.join("").slice(0, received.length),
    providerGaps: gaps(probed.map((chunk) => chunk.at)),
    subscriberGaps: gaps(deltas.map((delta) => delta.at)),
    chunkDelays,
    deltaEvents: deltas.length,
    ttft: deltas[0] ? deltas[0].at - run.calledAt : null,
    requestDelay: requestedAt === undefined ? null : requestedAt - run.calledAt,
    duration: finishedAt === null ? null : finishedAt - run.calledAt,
  };
}

async function storedLosses(db: Db, runs: SessionRun[], chunkCount: number): Promise<number> {
  const messages = await db.message.findMany({
    where: { sessionId: { in: runs.map((run) => run.sessionId) }, role: "assistant" },
    select: { sessionId: true, parts: true },
  });
  const textBySession = new Map(messages.map((message) => [message.sessionId, messageText(message)]));
  return runs.reduce((lost, run) => {
    const chunks = sessionChunks(run.index, chunkCount);
    return lost + chunks.length - deliveredChunks(chunks, textBySession.get(run.sessionId) ?? "");
  }, 0);
}

const row = (label: string, samples: number[], target = "") => {
  const s = summarize(samples);
  return [label, String(s.n), ms(s.p50, 1), ms(s.p99, 1), ms(s.max, 1), target];
};

function latencyRows(figures: SessionFigures[], options: BenchOptions): string[][] {
  const all = (pick: (f: SessionFigures) => number[] | number | null) => figures.flatMap((f) => pick(f) ?? []);
  const providerP99 = summarize(all((f) => f.providerGaps)).p99;
  const subscriberP99 = summarize(all((f) => f.subscriberGaps)).p99;
  const added = (label: string, value: number, target = "") => [label, "", "", ms(value, 1), "", target];
  return [
    row(
      "provider inter-chunk gap, as Patchbay reads it",
      all((f) => f.providerGaps),
    ),
    row(
      "subscriber inter-arrival gap (text.delta events)",
      all((f) => f.subscriberGaps),
    ),
    added(
      `added inter-chunk p99 (subscriber p99 - ${options.chunkDelayMs} ms)`,
      subscriberP99 - options.chunkDelayMs,
      "<= 25 ms",
    ),
    added("  same, minus the provider gap p99 as read", subscriberP99 - providerP99),
    row(
      "per-chunk delay: read by Patchbay -> at subscriber",
      all((f) => f.chunkDelays),
    ),
    row(
      "startTurn call -> model request sent",
      all((f) => f.requestDelay),
    ),
    row(
      "time to first text.delta (startTurn call -> subscriber)",
      all((f) => f.ttft),
    ),
    row(
      "turn duration (startTurn call -> turn.finished)",
      all((f) => f.duration),
    ),
  ];
}

async function deliveryRows(db: Db, figures: SessionFigures[], options: BenchOptions, result: ConcurrencyResult) {
  const { runs } = result;
  const sum = (pick: (f: SessionFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
  const totalChunks = runs.length * options.chunks;
  const statuses = await db.turn.groupBy({ by: ["status"], _count: { _all: true } });
  const statusText = statuses.map((s) => `${s.status} ${s._count._all}`).join(", ") || "none";
  const startErrors = runs.filter((run) => run.startError !== null);
  const lastFinish = Math.max(...runs.map((run) => run.watch.finishedAt() ?? 0));
  const nominal = ((options.chunks + 5) * options.chunkDelayMs) / 1000;
  return [
    ["chunks lost at subscribers", `${sum((f) => f.lostAtSubscriber)} of ${totalChunks}`, "must be 0"],
    ["  of which the provider never sent", `${sum((f) => f.lostAtProvider)}`, "failed or unfinished turns"],
    ["  sessions with duplicated/foreign text", `${figures.filter((f) => f.isGarbled).length}`, "must be 0"],
    ["chunks missing from stored messages", `${await storedLosses(db, runs, options.chunks)} of ${totalChunks}`, ""],
    ["text.delta events per session (mean)", (sum((f) => f.deltaEvents) / runs.length).toFixed(1), "batched deltas"],
    [
      "turn statuses",
      statusText,
      result.isAllFinished ? "all turn.finished seen" : `timed out (${options.timeoutMs / 1000} s)`,
    ],
    ["startTurn errors", `${startErrors.length}`, startErrors[0]?.startError?.slice(0, 80) ?? ""],
    [
      "wall time (first startTurn -> last turn.finished)",
      ms(lastFinish - result.start, 0),
      `one stream alone: ${nominal.toFixed(1)} s`,
    ],
  ];
}

function loadRows(load: ConcurrencyResult["load"], deliveredChunks: number): string[][] {
  const perChunk = (count: number) => `${(count / Math.max(1, deliveredChunks)).toFixed(2)} per delivered chunk`;
  const loop = [load.loopDelayP50, load.loopDelayP99, load.loopDelayMax].map((value) => ms(value, 0)).join(" / ");
  return [
    [
      "pg pool: max waiting clients / connections",
      `${load.maxWaiting} / ${load.maxConnections}`,
      `pool size ${load.poolSize}`,
    ],
    ["event-loop delay p50 / p99 / max", loop, ""],
    ["bench process CPU (cores busy, mean)", load.cpuShare.toFixed(2), "Patchbay + subscribers: one event loop"],
    [
      "machine CPU busy (all processes)",
      `${(load.machineBusy * 100).toFixed(0)}% of ${load.cores} cores`,
      "Postgres, fake provider, other load",
    ],
    ["pool checkouts (queries or transactions)", `${load.checkouts}`, perChunk(load.checkouts)],
    ["database transactions", `${load.transactions}`, perChunk(load.transactions)],
    [
      "streaming turns with a lapsed lease (max at once)",
      `${load.maxLapsedLeases}`,
      `longest overdue ${ms(load.maxLeaseOverdueMs, 0)}; must be 0 with several instances`,
    ],
  ];
}

export async function reportConcurrency(db: Db, options: BenchOptions, result: ConcurrencyResult): Promise<void> {
  const { runs, load, probe } = result;
  const figures = runs.map((run) =>
    analyzeSession(
      run,
      sessionChunks(run.index, options.chunks),
      probe.chunksOf(run.index),
      probe.requestedAt(run.index),
    ),
  );
  const delivered = runs.length * options.chunks - figures.reduce((total, f) => total + f.lostAtSubscriber, 0);
  printTable(
    `Concurrency: ${runs.length} sessions streaming at once, ${options.chunks} chunks ${options.chunkDelayMs} ms apart (provider: ${result.fakeWhere}; pg pool ${load.poolSize})`,
    ["figure", "n", "p50", "p99", "max", "target"],
    latencyRows(figures, options),
  );
  printTable("Concurrency: delivery", ["figure", "value", "note"], await deliveryRows(db, figures, options, result));
  printTable("Concurrency: load during the run", ["figure", "value", "note"], loadRows(load, delivered));
  printNotes([
    "gaps and per-chunk delays pool every session's samples; the provider gap is measured where Patchbay's AI SDK client reads the SSE body, so Patchbay's own event-loop stalls show up in it too.",
    "deltas are batched (flush interval 16 ms after a request's first delta) so a text.delta event may carry several chunks; the subscriber gap is between events.",
  ]);
}
