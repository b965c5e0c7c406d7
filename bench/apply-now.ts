// Apply-now latency: a turn streams a slow reply, then `manager.applyNow` (what chat.applyNow calls)
// supersedes it; measured from the call to the restarted request arriving at the fake provider
// (its `receivedAt`: the body has been read; a 1 ms wall clock, compared with this process's). A
// fetch wrapper on Patchbay's model clients stamps when each request leaves and when its abort
// signal fires, which splits the figure and times how soon the old stream is stopped. The fake
// runs in a child process unless --provider-in-process (then it shares this event loop).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

import type { ScriptedReply } from "../e2e/support/fake-provider/script.ts";
import { startFakeProvider } from "../e2e/support/fake-provider/server.ts";
import { createUserWithSession, TEST_MODELS, waitFor, waitForTurnEnd } from "../e2e/support/testbeds/engine.ts";
import type { BenchEngine } from "./bench-engine.ts";
import { startChildFake, type RunningFake } from "./child-fake.ts";
import { bindAll } from "./registry-setup.ts";
import { ms, printNotes, printTable, summarize } from "./stats.ts";

const WARM_UP = 3;
const CHOICE = { provider: "anthropic", model: TEST_MODELS.anthropic } as const;
/** The old turn: about 10 s of 4-character chunks 20 ms apart, unless it is stopped. */
const SLOW: ScriptedReply = { steps: [{ type: "text", text: "old ".repeat(500), chunkSize: 4 }], delayMs: 20 };
const QUICK: ScriptedReply = { steps: [{ type: "text", text: "Restarted on the new tools." }] };
const PROMPT = "Check the open incidents.";

type Recorded = { receivedAt: number; body: unknown };

/** The fake provider as this bench drives it (Anthropic endpoint only), wherever it runs. */
export type ApplyNowFake = RunningFake & {
  script(...replies: ScriptedReply[]): Promise<void>;
  /** Recorded Anthropic requests, oldest first; receivedAt in epoch milliseconds. */
  requests(): Promise<Recorded[]>;
  clear(): Promise<void>;
};

export async function startApplyNowFake(isInProcess: boolean): Promise<ApplyNowFake> {
  if (isInProcess) {
    const fake = await startFakeProvider({});
    return {
      baseUrls: fake.baseUrls,
      where: "in process",
      close: () => fake.close(),
      script: (...replies) => Promise.resolve(fake.script("anthropic", ...replies)),
      requests: () =>
        Promise.resolve(fake.requests("anthropic").map(({ receivedAt, body }) => ({ receivedAt: +receivedAt, body }))),
      clear: () => Promise.resolve(fake.clear()),
    };
  }
  const child = await startChildFake(1, 0);
  const control = (route: string, init?: RequestInit) =>
    fetch(new URL(`/_fake/${route}`, child.baseUrls.anthropic), init).then(async (response) => {
      if (!response.ok) throw new Error(`fake provider ${route}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    });
  const post = (route: string, body: unknown) =>
    control(route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return {
    ...child,
    script: async (...replies) => {
      for (const reply of replies) await post("script", { provider: "anthropic", reply });
    },
    requests: async () =>
      ((await control("requests?provider=anthropic")) as { receivedAt: string; body: unknown }[]).map((record) => ({
        receivedAt: Date.parse(record.receivedAt),
        body: record.body,
      })),
    clear: async () => void (await post("clear", {})),
  };
}

type Send = { at: number; abortedAt: number | null };

/** A fetch for the model clients that stamps every request as it leaves and when it is aborted. */
export function createSendStamps() {
  const sends: Send[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const send: Send = { at: performance.now(), abortedAt: null };
    sends.push(send);
    init?.signal?.addEventListener("abort", () => (send.abortedAt = performance.now()), { once: true });
    return globalThis.fetch(input, init);
  };
  return { fetch, sends };
}
export type SendStamps = ReturnType<typeof createSendStamps>;

type Sample = { returned: number; sent: number; arrived: number; oldAborted: number };
type Context = { engine: BenchEngine; fake: ApplyNowFake; stamps: SendStamps; connectorIds: string[] };

/** performance.now() on this process's clock of an epoch-milliseconds time. */
const fromEpoch = (epochMs: number) => epochMs - performance.timeOrigin;

async function boundChat({ engine, connectorIds }: Context) {
  const ids = await createUserWithSession(engine.db, "ApplyNow");
  await bindAll(engine.db, ids.sessionId, connectorIds);
  return ids;
}

async function applyNowOnce(context: Context) {
  const { engine, fake, stamps } = context;
  const { userId, sessionId } = await boundChat(context);
  await fake.clear();
  await fake.script(SLOW, QUICK);
  const { turnId } = await engine.manager.startTurn(userId, sessionId, PROMPT, CHOICE);
  await waitFor(
    () => engine.db.sessionEvent.findFirst({ where: { turnId, type: "text.delta" } }),
    (event) => !!event,
  );
  const old = stamps.sends.at(-1)!;
  const start = performance.now();
  const restarted = await engine.manager.applyNow(userId, turnId);
  const returned = performance.now() - start;
  const status = (await waitForTurnEnd(engine.db, restarted.turnId)).status;
  if (status !== "completed") throw new Error(`the restarted turn ended ${status}`);
  const requests = await fake.requests();
  const record = requests[1];
  if (requests.length !== 2 || !record) throw new Error(`expected 2 model requests, the fake got ${requests.length}`);
  const sample: Sample = {
    returned,
    sent: (stamps.sends.find((send) => send.at >= start)?.at ?? Number.NaN) - start,
    arrived: fromEpoch(record.receivedAt) - start,
    oldAborted: (old.abortedAt ?? Number.NaN) - start,
  };
  const declared = (record.body as { tools?: unknown[] }).tools?.length ?? 0;
  return { sample, request: { bytes: JSON.stringify(record.body).length, declared } };
}

/**
 * Pool checkouts (one per query or transaction) from applyNow() to its request leaving, on a turn
 * that already finished: no old stream writing meanwhile, so these are the path's own calls.
 */
async function checkoutsOfRestart(context: Context): Promise<number> {
  const { engine, fake, stamps } = context;
  const { userId, sessionId } = await boundChat(context);
  await fake.clear();
  await fake.script(QUICK, QUICK);
  const first = await engine.manager.startTurn(userId, sessionId, PROMPT, CHOICE);
  await waitForTurnEnd(engine.db, first.turnId);
  const start = performance.now();
  const restarted = await engine.manager.applyNow(userId, first.turnId);
  await waitForTurnEnd(engine.db, restarted.turnId);
  const sent = stamps.sends.find((send) => send.at >= start)?.at ?? Number.NaN;
  return engine.checkouts.filter((at) => at >= start && at <= sent).length;
}

function row(label: string, samples: number[], target = ""): string[] {
  const s = summarize(samples);
  return [label, String(s.n), ms(s.p50), ms(s.p99), ms(s.mean), target];
}

export async function runApplyNowBench(context: Context, runs: number): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const samples: Sample[] = [];
  let request = { bytes: 0, declared: 0 };
  for (let i = 0; i < WARM_UP + runs; i++) {
    const result = await applyNowOnce(context);
    if (i >= WARM_UP) samples.push(result.sample);
    request = result.request;
  }
  const pick = (key: keyof Sample) => samples.map((sample) => sample[key]);
  printTable(
    `Apply now: applyNow() of a streaming turn -> restarted request at the fake provider (${runs} runs after ${WARM_UP} warm-up)`,
    ["path", "n", "p50", "p99", "mean", "target"],
    [
      row("applyNow() call -> restarted request arrives at the fake provider", pick("arrived"), "<= 50 ms p50"),
      row("  breakdown: applyNow() returns", pick("returned")),
      row("  breakdown: applyNow() call -> request leaves Patchbay (fetch)", pick("sent")),
      row(
        "  breakdown: fetch -> the fake provider has read the body",
        samples.map((sample) => sample.arrived - sample.sent),
      ),
      row("applyNow() call -> old request aborted (its fetch signal fires)", pick("oldAborted")),
    ],
  );
  const checkouts = Math.min(
    await checkoutsOfRestart(context),
    await checkoutsOfRestart(context),
    await checkoutsOfRestart(context),
  );
  printNotes([
    `every run is a new chat with the ${context.connectorIds.length} connectors on; the restarted request declares ${request.declared} tools (a ${(request.bytes / 1024).toFixed(0)} KB body); anthropic; the fake provider runs in ${context.fake.where}.`,
    "'arrives' is the fake's receivedAt (set once it has read the whole body; whole milliseconds, so up to 1 ms early).",
    `from applyNow() to its request leaving, Patchbay makes ${checkouts} database calls (pool checkouts on a restart of a finished turn, fewest of 3; a transaction counts once).`,
    "the old stream stops when this instance gets the turn-control notification back from Postgres (LISTEN) and re-reads the turn.",
    `machine load (1-minute load average) at the start / end: ${loadBefore.toFixed(1)} / ${loadavg()[0]!.toFixed(1)}.`,
  ]);
}
