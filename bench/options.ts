// Command-line options of `npm run bench` (pass them after `--`, e.g. `npm run bench -- --sessions 50
// --only concurrency`). The defaults are the figures the issue asks for; lower them on a slow machine.
import { parseArgs } from "node:util";

export const SECTIONS = ["http", "storage", "render", "ttft", "concurrency", "registry", "browser"] as const;
export type Section = (typeof SECTIONS)[number];

export type BenchOptions = {
  sections: Section[];
  /** TTFT: measured turns per path (direct and through Patchbay), after warm-up. */
  ttftRuns: number;
  /** Render: timed renders per provider, after warm-up. */
  renderIterations: number;
  /** Concurrency: sessions streaming at once, chunks per reply, pause between SSE events. */
  sessions: number;
  chunks: number;
  chunkDelayMs: number;
  /** Concurrency: the Prisma pg pool size (the app uses 10 against a real Postgres). */
  poolSize: number;
  /** Concurrency: how long to wait for every turn to finish before reporting what arrived. */
  timeoutMs: number;
  /** Concurrency and apply now: run the fake provider in this process instead of a child process. */
  isProviderInProcess: boolean;
  /** Registry: timed rebuild + render cycles per provider, after warm-up. */
  registryIterations: number;
  /** Registry: measured apply-now restarts, after warm-up. */
  applyNowRuns: number;
  /** HTTP: single streams measured one at a time; concurrent levels; worker counts compared. */
  httpSamples: number;
  httpLevels: number[];
  httpWorkers: number[];
};

const HELP = `usage: npm run bench -- [options]
  --only <list>             sections to run, comma-separated: ${SECTIONS.join(",")} (default: all)
  --ttft-runs <n>           TTFT samples per path (default 50)
  --render-iterations <n>   timed renders per provider (default 200)
  --sessions <n>            concurrent streaming sessions (default 200)
  --chunks <n>              text chunks per scripted reply (default 100)
  --chunk-delay <ms>        fake provider pause between SSE events (default 20)
  --pool <n>                Prisma pg pool size for the concurrency run (default 10, as in the app)
  --timeout <s>             give up waiting for the concurrent turns after this long (default 120)
  --provider-in-process     concurrency, apply now: run the fake provider in the bench process (default: a child process)
  --registry-iterations <n> timed registry rebuild + render cycles per provider (default 200)
  --apply-now-runs <n>      measured apply-now restarts (default 30)
  --http-samples <n>        HTTP: single streams measured one at a time (default 20; quick 8)
  --http-levels <list>      HTTP: concurrent streams per level (default 50,100,200)
  --http-workers <list>     HTTP: PATCHBAY_WORKERS values compared (default 1,2; quick 1)
  --quick                   a few minutes in all (also BENCH_QUICK=1): only the http section with
                            fewer samples, 1 worker, a 60 s timeout per level`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number (got ${raw})\n${HELP}`);
  return value;
}

function list(name: string, raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  return raw.split(",").map((item) => Math.round(positive(name, item.trim(), 0)));
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: "string" },
      "ttft-runs": { type: "string" },
      "render-iterations": { type: "string" },
      sessions: { type: "string" },
      chunks: { type: "string" },
      "chunk-delay": { type: "string" },
      pool: { type: "string" },
      timeout: { type: "string" },
      "provider-in-process": { type: "boolean", default: false },
      "registry-iterations": { type: "string" },
      "apply-now-runs": { type: "string" },
      "http-samples": { type: "string" },
      "http-levels": { type: "string" },
      "http-workers": { type: "string" },
      quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const isQuick = values.quick;
  const sections = values.only ? values.only.split(",").map((name) => name.trim()) : isQuick ? ["http"] : [...SECTIONS];
  const unknown = sections.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(", ")}\n${HELP}`);
  return {
    sections: sections as Section[],
    ttftRuns: Math.round(positive("ttft-runs", values["ttft-runs"], 50)),
    renderIterations: Math.round(positive("render-iterations", values["render-iterations"], 200)),
    sessions: Math.round(positive("sessions", values.sessions, 200)),
    chunks: Math.round(positive("chunks", values.chunks, 100)),
    chunkDelayMs: positive("chunk-delay", values["chunk-delay"], 20),
    poolSize: Math.round(positive("pool", values.pool, 10)),
    timeoutMs: positive("timeout", values.timeout, isQuick ? 60 : 120) * 1000,
    isProviderInProcess: values["provider-in-process"],
    registryIterations: Math.round(positive("registry-iterations", values["registry-iterations"], 200)),
    applyNowRuns: Math.round(positive("apply-now-runs", values["apply-now-runs"], 30)),
    httpSamples: Math.round(positive("http-samples", values["http-samples"], isQuick ? 8 : 20)),
    httpLevels: list("http-levels", values["http-levels"], [50, 100, 200]),
    httpWorkers: list("http-workers", values["http-workers"], isQuick ? [1] : [1, 2]),
  };
}
