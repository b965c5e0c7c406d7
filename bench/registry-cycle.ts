// One timed cycle of the registry bench (registry.ts): what a live switch costs before the next model
// request, as the turn runner pays it: McpRegistry.rebuild, then snapshot() and renderRequest. A
// plain cycle rebuilds unchanged bindings (the tools come out the same: no revision); a switch cycle
// first toggles one tool in the chat, untimed as the settings write is, so every rebuild commits a
// new revision (and its tools.changed event) and the render meets a snapshot it has not seen.
import { performance } from "node:perf_hooks";

import type { McpRegistry } from "../server/mcp/registry.ts";
import type { RegistrySnapshot } from "../server/mcp/registry-tool.ts";
import { renderRequest } from "../server/providers/render.ts";
import type { ProviderId, Transcript } from "../server/core/canonical.ts";
import { TEST_MODELS } from "../e2e/support/testbeds/engine.ts";
import type { BenchEngine } from "./bench-engine.ts";

export type Cycle = { rebuild: number; snapshot: number; render: number; checkouts: number };
export type Render = (snapshot: RegistrySnapshot) => unknown;
/** A tool of a bound connector, toggled by switch cycles. */
export type Toggle = { sessionId: string; connectorId: string; toolName: string };

export const renderFor =
  (provider: ProviderId, transcript: Transcript): Render =>
  (snapshot) =>
    renderRequest({ provider, modelId: TEST_MODELS[provider], transcript, snapshot, isFollowUp: false });

/** One switch's worth of work: a rebuild, the turn's read of the latest revision, and its render. */
export async function cycle(engine: BenchEngine, registry: McpRegistry, sessionId: string, render: Render) {
  const start = performance.now();
  await registry.rebuild(sessionId, "bench");
  const rebuilt = performance.now();
  const snapshot = await registry.snapshot(sessionId);
  const read = performance.now();
  render(snapshot);
  const end = performance.now();
  const checkouts = engine.checkouts.filter((at) => at >= start && at <= rebuilt).length;
  return { cycle: { rebuild: rebuilt - start, snapshot: read - rebuilt, render: end - read, checkouts }, snapshot };
}

/** `count` cycles after `warmUp` untimed ones; with `toggle`, each is a switch cycle (see the module comment). */
export async function cycles(
  engine: BenchEngine,
  registry: McpRegistry,
  sessionId: string,
  render: Render,
  runs: { warmUp: number; count: number; toggle?: Toggle },
): Promise<Cycle[]> {
  const samples: Cycle[] = [];
  let revision = (await registry.snapshot(sessionId)).revision;
  for (let i = 0; i < runs.warmUp + runs.count; i++) {
    if (runs.toggle) await toggleTool(engine, runs.toggle, i % 2 === 0);
    const result = await cycle(engine, registry, sessionId, render);
    if (runs.toggle && result.snapshot.revision !== revision + 1)
      throw new Error(`a switch cycle made revision ${result.snapshot.revision} after ${revision}`);
    revision = result.snapshot.revision;
    if (i >= runs.warmUp) samples.push(result.cycle);
  }
  return samples;
}

async function toggleTool(engine: BenchEngine, toggle: Toggle, isOff: boolean): Promise<void> {
  const { sessionId, connectorId, toolName } = toggle;
  await engine.db.sessionConnector.update({
    where: { sessionId_connectorId: { sessionId, connectorId } },
    data: { disabledTools: isOff ? [toolName] : [] },
  });
}

export async function timeRebuilds(registry: McpRegistry, sessionId: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await registry.rebuild(sessionId, "bench");
    samples.push(performance.now() - start);
  }
  return samples;
}
