// `npm run bench [-- options]`: prints figures for Patchbay's hot paths; never passes or fails on
// time. Sections (see options.ts for the flags; `--only` picks some; BENCH_QUICK=1 runs http only, short):
//  - http: the production build over HTTP + SSE, as browsers drive it, beside the fake provider
//    called directly: 1, 50, 100, 200 concurrent streams, 1 vs 2 worker processes (http.ts);
//  - storage: migrations on a fresh real and embedded Postgres, chat-session create/list;
//  - render: renderRequest for 200 messages x 500 tools, per provider;
//  - ttft: time to first token, the fake provider directly vs through Patchbay;
//  - concurrency: 200 sessions streaming at once: added inter-chunk latency, chunks lost;
//  - registry: rebuild + render with 10 connectors x 50 tools (warm, cold), apply-now latency;
//  - browser: the chat page in Chromium against the production build (browser.ts): time to
//    interactive, INP of a tool toggle, filtering 1,000 tools, JS shipped, main-thread busy while
//    streaming, each beside its goal.
import { runBrowserBench } from "./browser.ts";
import { runConcurrencyBench } from "./concurrency.ts";
import { runHttpBench } from "./http.ts";
import { parseBenchOptions, type Section } from "./options.ts";
import { runRegistryBench } from "./registry.ts";
import { runRenderBench } from "./render.ts";
import { runStorageBench } from "./storage.ts";
import { time } from "./stats.ts";
import { runTtftBench } from "./ttft.ts";

const options = parseBenchOptions(process.argv.slice(2));
const sections: Record<Section, () => Promise<void>> = {
  http: () => runHttpBench(options),
  storage: runStorageBench,
  render: () => Promise.resolve(runRenderBench(options)),
  ttft: () => runTtftBench(options),
  concurrency: () => runConcurrencyBench(options),
  registry: () => runRegistryBench(options),
  browser: runBrowserBench,
};

for (const section of options.sections) {
  const [, elapsed] = await time(sections[section]);
  console.log(`  (${section} took ${(elapsed / 1000).toFixed(1)} s)`);
}
