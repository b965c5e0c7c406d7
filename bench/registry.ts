// Registry figures for a chat with CONNECTORS connectors of TOOLS_PER_CONNECTOR tools each: the
// cycle a live switch costs before the next model request (McpRegistry.rebuild, then snapshot() and
// renderRequest as the turn runner calls them), warm and cold, and apply now (apply-now.ts). Warm
// runs on an in-memory ConnectionPool (the registry and the renderers, not MCP I/O); cold spawns
// the connectors as real stdio MCP servers on a fresh ConnectionPool. Everything runs against a
// fresh real Postgres database through the app's pool size.
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";

import { builtinTools } from "../server/mcp/builtin-tools.ts";
import { ConnectionPool } from "../server/mcp/connection-pool.ts";
import type { RegistrySnapshot } from "../server/mcp/registry-tool.ts";
import { commitRevision } from "../server/mcp/revision-store.ts";
import type { ProviderId, Transcript } from "../server/core/canonical.ts";
import { createUserWithSession } from "../e2e/support/testbeds/engine.ts";
import { createSendStamps, runApplyNowBench, startApplyNowFake } from "./apply-now.ts";
import { startBenchEngine, type BenchEngine } from "./bench-engine.ts";
import { cycles, renderFor, timeRebuilds, type Cycle } from "./registry-cycle.ts";
import type { BenchOptions } from "./options.ts";
import { syntheticTranscript } from "./render-fixture.ts";
import { CONNECTORS, TOOLS_PER_CONNECTOR } from "./registry-fixture.ts";
import { bindAll, createBenchConnectors, createBenchRegistry, type BenchConnectors } from "./registry-setup.ts";
import { ms, printNotes, printTable, summarize } from "./stats.ts";

const PROVIDERS = ["anthropic", "openai", "google"] as const satisfies readonly ProviderId[];
type Provider = (typeof PROVIDERS)[number];
const HISTORY = 20;
const WARM_UP = 20;
const COLD_RUNS = 3;
const NEW_CHATS = 20;
const STDIO_WARM = 50;
const EXPECTED_TOOLS = CONNECTORS * TOOLS_PER_CONNECTOR + builtinTools.length;
/** Spawning ten `node --import tsx` servers at once on a busy 2-CPU machine can exceed the app's 10 s. */
const COLD_CONNECT_TIMEOUT_MS = 60_000;

async function boundSession(engine: BenchEngine, connectors: BenchConnectors): Promise<string> {
  const { sessionId } = await createUserWithSession(engine.db, "Registry");
  await bindAll(engine.db, sessionId, connectors.ids);
  return sessionId;
}

async function measureWarm(engine: BenchEngine, connectors: BenchConnectors, iterations: number) {
  const registry = createBenchRegistry(engine.db, connectors.createInMemoryPool(), connectors.resolveLikeApp);
  const sessionId = await boundSession(engine, connectors);
  const first = await registry.snapshot(sessionId);
  if (first.tools.length !== EXPECTED_TOOLS)
    throw new Error(`expected ${EXPECTED_TOOLS} tools, got ${first.tools.length}`);
  const toolName = first.tools.find((tool) => tool.connectorId === connectors.ids[0])!.toolName;
  const toggle = { sessionId, connectorId: connectors.ids[0]!, toolName };
  const unchanged = {} as Record<Provider, Cycle[]>;
  const switches = {} as Record<Provider, Cycle[]>;
  for (const provider of PROVIDERS) {
    const render = renderFor(provider, syntheticTranscript(provider, HISTORY, first));
    unchanged[provider] = await cycles(engine, registry, sessionId, render, { warmUp: WARM_UP, count: iterations });
    switches[provider] = await cycles(engine, registry, sessionId, render, {
      warmUp: WARM_UP,
      count: iterations,
      toggle,
    });
  }
  const fromMemory = createBenchRegistry(engine.db, connectors.createInMemoryPool(), connectors.resolveFromMemory);
  const memoryRebuilds = (await timeRebuilds(fromMemory, sessionId, WARM_UP + iterations)).slice(WARM_UP);
  const newChats: number[] = [];
  for (let i = 0; i < NEW_CHATS; i++) {
    const fresh = await boundSession(engine, connectors);
    const start = performance.now();
    await registry.snapshot(fresh);
    newChats.push(performance.now() - start);
  }
  const otherInstance: number[] = [];
  for (let i = 0; i < NEW_CHATS; i++) {
    const reader = createBenchRegistry(engine.db, connectors.createInMemoryPool(), connectors.resolveLikeApp);
    const start = performance.now();
    await reader.snapshot(sessionId);
    otherInstance.push(performance.now() - start);
  }
  const writes = await timeSnapshotWrites(engine, sessionId, first, iterations);
  const stored = await storedSizes(engine, sessionId);
  return { first, unchanged, switches, memoryRebuilds, writes, newChats, otherInstance, stored };
}

/** Bytes of the latest revision's row and of everything its tools are stored in. */
async function storedSizes(engine: BenchEngine, sessionId: string) {
  const [sizes] = await engine.db.$queryRaw<{ manifest: number; lists: number; selections: number }[]>`
    SELECT
      (SELECT length(manifest::text) FROM "ToolSnapshot" WHERE "sessionId" = ${sessionId}
        ORDER BY revision DESC LIMIT 1)::int AS manifest,
      (SELECT sum(length(tools::text)) FROM "ToolList")::int AS lists,
      (SELECT sum(length(selection::text)) FROM "ToolSelection")::int AS selections`;
  return sizes!;
}

/**
 * The write a rebuild ends with, alone: commitRevision with the bound session's manifest (its lists
 * and selections already stored), and for comparison the row every revision wrote before content
 * addressing: the whole snapshot as JSONB, through Prisma and as raw SQL serialised beforehand.
 */
async function timeSnapshotWrites(
  engine: BenchEngine,
  boundSession: string,
  snapshot: RegistrySnapshot,
  count: number,
) {
  const { manifest } = await engine.db.toolSnapshot.findFirstOrThrow({
    where: { sessionId: boundSession },
    orderBy: { revision: "desc" },
  });
  const { sessionId } = await createUserWithSession(engine.db, "Scratch");
  const json = JSON.stringify(snapshot.tools);
  const samples = { commit: [] as number[], prisma: [] as number[], raw: [] as number[] };
  for (let i = 0; i < WARM_UP + count; i++) {
    const start = performance.now();
    const write = { sessionId, readAt: i, pendingLists: "[]", pendingSelections: "[]", reason: "bench" };
    await commitRevision(engine.db, { ...write, manifest: manifest as { v: 2; selections: string[] } });
    const committed = performance.now();
    await engine.db.toolSnapshot.create({
      data: { sessionId, revision: 100_000 + 2 * i, tools: snapshot.tools, reason: "bench" },
    });
    const created = performance.now();
    await engine.db.$executeRaw`
      INSERT INTO "ToolSnapshot" ("sessionId", "revision", "tools", "reason")
      VALUES (${sessionId}, ${100_001 + 2 * i}, ${json}::jsonb, 'bench')`;
    if (i < WARM_UP) continue;
    samples.commit.push(committed - start);
    samples.prisma.push(created - committed);
    samples.raw.push(performance.now() - created);
  }
  return samples;
}

/** Throws unless every connector's tools made it into the snapshot (a server may fail to start). */
function assertComplete(snapshot: RegistrySnapshot, pool: ConnectionPool, connectors: BenchConnectors): void {
  if (snapshot.tools.length === EXPECTED_TOOLS) return;
  const errors = connectors.ids.map((id) => pool.lastError(id)).filter((error) => error !== null);
  throw new Error(`cold rebuild gave ${snapshot.tools.length} of ${EXPECTED_TOOLS} tools: ${errors.join("; ")}`);
}

/** First rebuilds on fresh pools of real stdio servers, then warm rebuilds on the last one. */
async function measureColdStdio(engine: BenchEngine, connectors: BenchConnectors, transcript: Transcript) {
  const rebuilds: number[] = [];
  const totals: number[] = [];
  let warm: number[] = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const pool = new ConnectionPool({ connectTimeoutMs: COLD_CONNECT_TIMEOUT_MS });
    try {
      const registry = createBenchRegistry(engine.db, pool, connectors.resolveLikeApp);
      const sessionId = await boundSession(engine, connectors);
      const render = renderFor("anthropic", transcript);
      const start = performance.now();
      await registry.rebuild(sessionId, "cold");
      let snapshot = await registry.snapshot(sessionId);
      // On a loaded machine a server may take longer to start than a rebuild waits for its list
      // (it joins with a later revision): rebuild until every server is in, within the connect timeout.
      while (snapshot.tools.length < EXPECTED_TOOLS && performance.now() - start < COLD_CONNECT_TIMEOUT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await registry.rebuild(sessionId, "cold, a server still starting");
        snapshot = await registry.snapshot(sessionId);
      }
      const rebuilt = performance.now();
      render(snapshot);
      totals.push(performance.now() - start);
      rebuilds.push(rebuilt - start);
      assertComplete(snapshot, pool, connectors);
      if (run === COLD_RUNS - 1) warm = (await timeRebuilds(registry, sessionId, WARM_UP + STDIO_WARM)).slice(WARM_UP);
    } finally {
      await pool.closeAll();
    }
  }
  return { rebuilds, totals, warm };
}

/** This bench at d14d5b7 (whole snapshot per revision), for comparison; measured, not live. */
const BEFORE_CONTENT_ADDRESSING =
  "before content addressing (d14d5b7, this bench with the same connector lookup, load 4.8-9.9 on 2 CPUs): warm rebuild + snapshot + render p50 32.1 / 33.1 / 36.6 ms, p95 45.7 / 46.0 / 49.0 ms (anthropic / openai / google); rebuild() alone p50 31.1 ms, p95 43.1 ms; cold stdio first rebuild p50 10.6 s; cold new chat 31.6 ms p50; another instance's first read 7.5 ms p50.";

/** This bench's rows at fef8ab7 (before the warm-path memos), run back to back with 57a59f7; measured, not live. */
const BEFORE_WARM_MEMOS =
  "before the warm-path memos (fef8ab7, three runs back to back with this code, load 1.6-9.9 on 2 CPUs): warm rebuild + snapshot + render p50 6.8-12.5 / 6.4-10.2 / 7.7-13.4 ms (anthropic / openai / google); rebuild() alone p50 5.4-8.5 ms with 4 pool checkouts; snapshot() 0.7-1.1 ms; renderRequest alone 0.56-0.71 / 0.52-0.78 / 2.7-3.6 ms. This code in the same runs: 1.0-1.5 / 1.2-1.5 / 1.0-1.2 ms; rebuild() 0.8-0.9 ms with 1 checkout; snapshot() 0.3 ms; renderRequest 0.06-0.10 ms.";

function row(label: string, samples: number[], target = ""): string[] {
  const s = summarize(samples);
  return [label, String(s.n), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.mean), target];
}

async function runRebuildBench(engine: BenchEngine, connectors: BenchConnectors, iterations: number) {
  const loadBefore = loadavg()[0]!;
  const warm = await measureWarm(engine, connectors, iterations);
  const cold = await measureColdStdio(engine, connectors, syntheticTranscript("anthropic", HISTORY, warm.first));
  const all = PROVIDERS.flatMap((provider) => warm.unchanged[provider]);
  const allSwitches = PROVIDERS.flatMap((provider) => warm.switches[provider]);
  const pick = (cycles: Cycle[], key: keyof Cycle) => cycles.map((sample) => sample[key]);
  const total = (cycles: Cycle[]) => cycles.map((sample) => sample.rebuild + sample.snapshot + sample.render);
  printTable(
    `Registry rebuild + render: ${CONNECTORS} connectors x ${TOOLS_PER_CONNECTOR} tools (+${builtinTools.length} built-in), ${HISTORY}-message transcript (${iterations} cycles per provider and kind after ${WARM_UP} warm-up)`,
    ["path", "n", "p50", "p95", "p99", "mean", "target"],
    [
      ...PROVIDERS.map((provider) =>
        row(`warm, ${provider}: rebuild + snapshot + render`, total(warm.unchanged[provider]), "<= 2 ms p50"),
      ),
      ...PROVIDERS.map((provider) =>
        row(`warm switch, ${provider}: rebuild + snapshot + render`, total(warm.switches[provider])),
      ),
      row("  rebuild() alone (app's connector lookup)", pick(all, "rebuild")),
      row("  rebuild() alone, connector lookup from memory", warm.memoryRebuilds),
      row("  rebuild() alone, a switch (new revision + tools.changed event)", pick(allSwitches, "rebuild")),
      row("    its write alone: commitRevision (manifest + revision bump, one statement)", warm.writes.commit),
      row("    before content addressing: the whole snapshot row (Prisma)", warm.writes.prisma),
      row("    before content addressing: the same row as raw SQL", warm.writes.raw),
      row("  snapshot() alone (reads the latest revision)", pick(all, "snapshot")),
      row("  snapshot() alone, after a switch (the revision it just built)", pick(allSwitches, "snapshot")),
      ...PROVIDERS.map((provider) =>
        row(`  renderRequest alone, ${provider}`, pick(warm.unchanged[provider], "render")),
      ),
      ...PROVIDERS.map((provider) =>
        row(`  renderRequest alone, ${provider}, a new revision`, pick(warm.switches[provider], "render")),
      ),
      row(`cold, stdio: first rebuild(s) on a fresh ConnectionPool until every server is in`, cold.rebuilds),
      row(`cold, stdio: first rebuild + snapshot + render (anthropic)`, cold.totals),
      row("  warm rebuild() on that stdio pool (tool lists cached)", cold.warm),
      row("cold, new chat: first snapshot() (builds revision 1, in-memory lists)", warm.newChats),
      row("cold, another instance: first snapshot() of a revision it never built", warm.otherInstance),
    ],
  );
  const checkouts = summarize(pick(all, "checkouts")).p50;
  const switchCheckouts = summarize(pick(allSwitches, "checkouts")).p50;
  printNotes([
    "warm: McpRegistry runs on an in-memory ConnectionPool whose listTools answers with the fixture's lists at once, as a warm pool answers from its cache; it times the registry (its Postgres reads and writes, naming, policy) and the renderers, not MCP I/O. The 'on that stdio pool' row is the same cycle's rebuild with a real pool.",
    `cold, stdio: ${CONNECTORS} MCP servers (bench/mcp-tool-server.ts, ${TOOLS_PER_CONNECTOR} tools each in one tools/list page) spawned as \`node --import tsx\` in parallel, fresh pool per run (spawn + initialize + tools/list; connect timeout ${COLD_CONNECT_TIMEOUT_MS / 1000} s).`,
    "cold, another instance: a fresh McpRegistry (empty caches) reads the latest revision: the row's manifest, then its selections and tool lists by hash.",
    `machine load (1-minute load average) at the start / end of these measurements: ${loadBefore.toFixed(1)} / ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs; other work on the machine shows up in every figure.`,
    `warm: the same bindings rebuilt (the tools come out the same, so no revision: what a list_changed or health rebuild that changes nothing costs); warm switch: one tool toggled in the chat before each rebuild (untimed, as the settings write is), so each commits a new revision and its tools.changed event, and the render meets a snapshot it has not seen.`,
    `a rebuild makes ${checkouts} pool checkouts (median) when nothing changed: the session's state (revision, persona allowlist, bindings with each connector's row fingerprint, the owner's sub-agents: one statement); connector lookups are kept per row content, and a composed manifest equal to the revision read needs no commit. A switch makes ${switchCheckouts}: the state, the commit (lists and selections not yet stored, the revision bump and the manifest: one statement), the tools.changed event.`,
    "render: tool declarations are memoised per snapshot tool array and each schema's provider form per schema object (server/providers/tool-declarations.ts), so a known revision's render maps only the transcript, and a new revision's converts only schemas it has not seen.",
    `storage: a revision's row holds a ${warm.stored.manifest}-byte manifest (selection hashes); the ${EXPECTED_TOOLS} tools' lists are stored once by hash (${(warm.stored.lists / 1024).toFixed(0)} KB in all) and the per-connector selections (exposed names, policies) once per distinct content (${(warm.stored.selections / 1024).toFixed(0)} KB in all). Before, every revision wrote the whole snapshot (${(JSON.stringify(warm.first.tools).length / 1024).toFixed(0)} KB).`,
    `transcript: ${HISTORY} canonical messages of the render bench's shape, from the rendering provider; rebuild and snapshot rows pool all providers' cycles.`,
    BEFORE_CONTENT_ADDRESSING,
    BEFORE_WARM_MEMOS,
  ]);
}

export async function runRegistryBench(options: BenchOptions): Promise<void> {
  const fake = await startApplyNowFake(options.isProviderInProcess);
  const stamps = createSendStamps();
  const wired: { connectors: BenchConnectors | null } = { connectors: null };
  const engine = await startBenchEngine({
    fake,
    poolSize: 10,
    fetch: stamps.fetch,
    tools: async (db) => {
      const connectors = await createBenchConnectors(db);
      wired.connectors = connectors;
      return createBenchRegistry(db, connectors.createInMemoryPool(), connectors.resolveLikeApp);
    },
  });
  try {
    if (!wired.connectors) throw new Error("the bench connectors were not created");
    await runRebuildBench(engine, wired.connectors, options.registryIterations);
    await runApplyNowBench({ engine, fake, stamps, connectorIds: wired.connectors.ids }, options.applyNowRuns);
  } finally {
    await engine.close();
    await fake.close();
  }
}
