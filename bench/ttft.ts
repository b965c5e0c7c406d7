// Time to first token, the fake provider called directly vs through Patchbay, in the same run,
// interleaved (direct and Patchbay alternate which goes first) on the same scripted reply:
//  - direct: AI SDK streamText on createLanguageModel (anthropic) pointed at the fake provider, from
//    the call to the first text delta;
//  - Patchbay: manager.startTurn(...) until a followEvents subscriber (what a browser follows) sees
//    the first text.delta event. This includes persisting the user message and the turn (and their
//    events: one statement), loading + validating the history, rendering, the request itself, and
//    the first delta: the turn runner publishes a request's first delta at once (later ones every
//    flushIntervalMs, 16 ms by default) in one statement, and hands the appended events to this
//    process's subscribers directly.
// Two replies: "streamed" (words 10 ms apart, as a model writes) and "burst" (the whole reply in one
// write: the floor of Patchbay's overhead). The breakdown rows split Patchbay's
// figure at the fake provider's receivedAt for the request and turn.firstTokenAt (when the turn
// runner got the first delta), both millisecond resolution.
import { performance } from "node:perf_hooks";

import { streamText } from "ai";

import type { ScriptedReply } from "../e2e/support/fake-provider/script.ts";
import { startFakeProvider } from "../e2e/support/fake-provider/server.ts";
import { createLanguageModel } from "../server/providers/model-factory.ts";
import { createUserWithSession, fakeBaseUrl, TEST_MODELS } from "../e2e/support/testbeds/engine.ts";
import { startBenchEngine, type BenchEngine } from "./bench-engine.ts";
import type { BenchOptions } from "./options.ts";
import { ms, printNotes, printTable, sleep, summarize, withTimeout } from "./stats.ts";
import { watchSession } from "./session-watch.ts";

const WARM_UP = 5;
const PROMPT = "Summarise the release notes in two sentences.";
const TEXT = "The release adds live tool re-wiring and resumable streams. It also fixes reconnects after a reload.";
const REPLIES = {
  streamed: { steps: [{ type: "text", text: TEXT }], delayMs: 10 },
  burst: { steps: [{ type: "text", text: TEXT }] },
} satisfies Record<string, ScriptedReply>;
type Variant = keyof typeof REPLIES;
const MODEL = TEST_MODELS.anthropic;
type Fake = Awaited<ReturnType<typeof startFakeProvider>>;

async function directTtft(fake: Fake, reply: ScriptedReply): Promise<number> {
  fake.script("anthropic", reply);
  const model = createLanguageModel({
    provider: "anthropic",
    modelId: MODEL,
    apiKey: "test-key",
    baseURL: fakeBaseUrl(fake, "anthropic"),
  });
  const start = performance.now();
  const result = streamText({ model, prompt: PROMPT, maxRetries: 0 });
  let first: number | null = null;
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") first ??= performance.now();
    if (part.type === "error") throw new Error(`direct stream failed: ${String(part.error)}`);
  }
  if (first === null) throw new Error("direct stream had no text delta");
  return first - start;
}

type PatchbaySample = {
  subscriber: number;
  startTurn: number;
  requestAt: number;
  firstTokenAt: number;
};

async function patchbayTtft(engine: BenchEngine, fake: Fake, reply: ScriptedReply): Promise<PatchbaySample> {
  const { userId, sessionId } = await createUserWithSession(engine.db, "Ttft");
  const watch = watchSession(engine.db, sessionId);
  await sleep(10); // let the subscriber make its first read and wait, as a browser would be
  fake.script("anthropic", reply);
  const startWall = performance.timeOrigin + performance.now();
  const start = performance.now();
  const { turnId } = await engine.manager.startTurn(userId, sessionId, PROMPT, { provider: "anthropic", model: MODEL });
  const startTurn = performance.now() - start;
  const status = await withTimeout(watch.finished, 15_000, "timeout");
  watch.stop();
  const first = watch.deltas[0];
  if (status !== "completed" || !first)
    throw new Error(`Patchbay turn ended ${status} with ${watch.deltas.length} deltas`);
  const turn = await engine.db.turn.findUniqueOrThrow({ where: { id: turnId }, select: { firstTokenAt: true } });
  const requestAt = (fake.requests("anthropic").at(-1)?.receivedAt.getTime() ?? Number.NaN) - startWall;
  return {
    subscriber: first.at - start,
    startTurn,
    requestAt,
    firstTokenAt: (turn.firstTokenAt?.getTime() ?? Number.NaN) - startWall,
  };
}

/**
 * Pool checkouts (one per query or transaction) between startTurn and the request reaching the
 * provider, on a turn nobody follows (a subscriber's reads would be counted too).
 */
async function queriesBeforeRequest(engine: BenchEngine, fake: Fake): Promise<number> {
  const { userId, sessionId } = await createUserWithSession(engine.db, "Ttft");
  fake.script("anthropic", REPLIES.burst);
  const startWall = performance.timeOrigin + performance.now();
  const start = performance.now();
  await engine.manager.startTurn(userId, sessionId, PROMPT, { provider: "anthropic", model: MODEL });
  await sleep(500);
  const requestAt = (fake.requests("anthropic").at(-1)?.receivedAt.getTime() ?? Number.NaN) - startWall;
  return engine.checkouts.filter((at) => at >= start && at <= start + requestAt).length;
}

type Samples = { direct: number[]; patchbay: PatchbaySample[] };

/** One direct and one Patchbay sample on `variant`'s reply, in alternating order. */
async function measurePair(engine: BenchEngine, fake: Fake, variant: Variant, isDirectFirst: boolean) {
  const reply = REPLIES[variant];
  const directFirst = isDirectFirst ? await directTtft(fake, reply) : undefined;
  const patchbay = await patchbayTtft(engine, fake, reply);
  return { direct: directFirst ?? (await directTtft(fake, reply)), patchbay };
}

function row(label: string, samples: number[], target = ""): string[] {
  const s = summarize(samples);
  return [label, String(s.n), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.mean), target];
}

function variantRows(variant: Variant, { direct, patchbay }: Samples): string[][] {
  const subscriber = patchbay.map((sample) => sample.subscriber);
  const [d, p] = [summarize(direct), summarize(subscriber)];
  const delta = (pick: (summary: typeof d) => number) => ms(pick(p) - pick(d));
  const added = `${variant}: added by Patchbay (Patchbay - direct)`;
  return [
    row(`${variant}: direct streamText -> first text delta`, direct),
    row(`${variant}: Patchbay startTurn -> first text.delta at subscriber`, subscriber),
    [added, "", delta((s) => s.p50), delta((s) => s.p95), delta((s) => s.p99), delta((s) => s.mean), "<= 5 ms p50"],
    row(
      "  breakdown: startTurn() returns",
      patchbay.map((sample) => sample.startTurn),
    ),
    row(
      "  breakdown: start -> request reaches the provider",
      patchbay.map((sample) => sample.requestAt),
    ),
    row(
      "  breakdown: start -> first delta reaches turn runner",
      patchbay.map((sample) => sample.firstTokenAt),
    ),
    row(
      "  breakdown: turn runner -> subscriber (write + delivery)",
      patchbay.map((sample) => sample.subscriber - sample.firstTokenAt),
    ),
  ];
}

export async function runTtftBench(options: BenchOptions): Promise<void> {
  const fake = await startFakeProvider({});
  const engine = await startBenchEngine({ fake, poolSize: 10 });
  try {
    const samples: Record<Variant, Samples> = {
      streamed: { direct: [], patchbay: [] },
      burst: { direct: [], patchbay: [] },
    };
    for (let i = 0; i < WARM_UP + options.ttftRuns; i++) {
      for (const variant of ["streamed", "burst"] as const) {
        const pair = await measurePair(engine, fake, variant, i % 2 === 0);
        if (i < WARM_UP) continue;
        samples[variant].direct.push(pair.direct);
        samples[variant].patchbay.push(pair.patchbay);
      }
    }
    printTable(
      `Time to first token: direct vs through Patchbay (${options.ttftRuns} interleaved runs per row, after ${WARM_UP} warm-up)`,
      ["reply: path", "n", "p50", "p95", "p99", "mean", "target"],
      [...variantRows("streamed", samples.streamed), ...variantRows("burst", samples.burst)],
    );
    // The fewest of three turns: the lease sweeper's tick (every 5 s) may land in one of them.
    const queries = Math.min(
      await queriesBeforeRequest(engine, fake),
      await queriesBeforeRequest(engine, fake),
      await queriesBeforeRequest(engine, fake),
    );
    printNotes([
      `between startTurn and its model request a turn makes ${queries} database calls (pool checkouts), one after another.`,
      "Patchbay's figure includes persisting the user message, the turn and their events, and publishing the first delta (at once, as is every later one unless the previous batch left less than 16 ms before).",
      "streamed: words 10 ms apart (3 SSE events precede the first delta on both paths); burst: the whole reply in one write.",
      "the direct request carries no system prompt or tools; Patchbay's carries a system prompt and the built-in tool.",
      "with n = 50 a p99 is the slowest sample, so 'added' at p99 is a difference of two outliers (it can even come out negative on a busy machine).",
    ]);
  } finally {
    await engine.close();
    await fake.close();
  }
}
