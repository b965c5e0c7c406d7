// Render cost: renderRequest (canonical transcript + tool snapshot -> AI SDK request, pure) for each
// provider, on a long chat (200 messages with reasoning, provider data, tool calls and results) and
// a large snapshot (500 tools with realistic JSON Schemas). A turn pays this once per model request
// (its tool declarations once per revision and provider: see the notes).
// Two breakdown rows per provider separate the transcript's share from the tools' share, and one
// row times the zod validation loadTurnHistory runs on the stored messages before every request.
import { performance } from "node:perf_hooks";

import { renderRequest } from "../server/providers/render.ts";
import { providerIds, type ProviderId, type ToolSnapshot, type Transcript } from "../server/core/canonical.ts";
import { toCanonicalMessage } from "../server/session/transcript.ts";
import type { BenchOptions } from "./options.ts";
import { syntheticSnapshot, syntheticTranscript } from "./render-fixture.ts";
import { ms, printNotes, printTable, summarize } from "./stats.ts";

const MESSAGES = 200;
const TOOLS = 500;
const WARM_UP = 30;
const MODEL_IDS: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-2.5-flash",
  "openai-compatible": "llama3.2",
};

function timeSync(iterations: number, run: () => unknown): number[] {
  for (let i = 0; i < WARM_UP; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return samples;
}

function renderSamples(provider: ProviderId, transcript: Transcript, snapshot: ToolSnapshot, iterations: number) {
  const input = { provider, modelId: MODEL_IDS[provider], transcript, snapshot, isFollowUp: false };
  const rendered = renderRequest(input);
  const samples = timeSync(iterations, () => renderRequest(input));
  return { samples, messages: rendered.messages.length, tools: rendered.toolNames.length };
}

/**
 * Renders of revisions never rendered before: each call gets a new tool array of new tool objects
 * over the same schema objects, as a registry switch makes (tool-declarations.ts memoises per array).
 */
function newRevisionSamples(provider: ProviderId, transcript: Transcript, snapshot: ToolSnapshot, iterations: number) {
  const revisions = Array.from({ length: WARM_UP + iterations }, (_, n) => ({
    revision: snapshot.revision + 1 + n,
    tools: snapshot.tools.map((tool) => ({ ...tool })),
  }));
  let next = 0;
  const render = () =>
    renderRequest({
      provider,
      modelId: MODEL_IDS[provider],
      transcript,
      snapshot: revisions[next++]!,
      isFollowUp: false,
    });
  const rendered = renderRequest({ provider, modelId: MODEL_IDS[provider], transcript, snapshot, isFollowUp: false });
  return {
    samples: timeSync(iterations, render),
    messages: rendered.messages.length,
    tools: rendered.toolNames.length,
  };
}

function row(label: string, result: { samples: number[]; messages: number; tools: number }, target = "") {
  const s = summarize(result.samples);
  return [label, `${result.messages} / ${result.tools}`, String(s.n), ms(s.p50), ms(s.p99), ms(s.mean), target];
}

export function runRenderBench(options: BenchOptions): void {
  const snapshot = syntheticSnapshot(TOOLS);
  const oneTool: ToolSnapshot = { revision: 1, tools: snapshot.tools.slice(0, 1) };
  const rows: string[][] = [];
  for (const provider of providerIds) {
    const transcript = syntheticTranscript(provider, MESSAGES, snapshot);
    const lastUser = { ...transcript, messages: transcript.messages.slice(-1) };
    const full = renderSamples(provider, transcript, snapshot, options.renderIterations);
    rows.push(row(`${provider}: ${MESSAGES} messages x ${TOOLS} tools`, full, "<= 5 ms p50"));
    rows.push(
      row(
        `  ${provider}: ${MESSAGES} messages x 1 tool`,
        renderSamples(provider, transcript, oneTool, options.renderIterations),
      ),
    );
    rows.push(
      row(
        `  ${provider}: 1 message x ${TOOLS} tools`,
        renderSamples(provider, lastUser, snapshot, options.renderIterations),
      ),
    );
    rows.push(
      row(
        `  ${provider}: 1 message x ${TOOLS} tools, a revision not rendered before`,
        newRevisionSamples(provider, lastUser, snapshot, options.renderIterations),
      ),
    );
  }
  const stored = syntheticTranscript("anthropic", MESSAGES, snapshot).messages.map((message) => ({
    ...structuredClone(message),
    turnId: null,
  }));
  const validation = timeSync(options.renderIterations, () => stored.map(toCanonicalMessage));
  rows.push(row(`validate ${MESSAGES} stored messages (zod)`, { samples: validation, messages: MESSAGES, tools: 0 }));

  printTable(
    `Render cost: renderRequest per provider (${options.renderIterations} iterations after ${WARM_UP} warm-up)`,
    ["input", "msgs / tools out", "n", "p50", "p99", "mean", "target"],
    rows,
  );
  printNotes([
    `transcript: ${MESSAGES} canonical messages in rounds of user -> assistant (reasoning, text, 2 tool calls) -> tool results -> assistant text, with the rendering provider's providerData; tools: ${TOOLS} MCP-style schemas ($ref/$defs, enums, nullable types, nested objects).`,
    "'msgs / tools out' is what the renderer emitted (adjacent messages merged, results folded into tool messages).",
    "the zod row is not part of renderRequest: loadTurnHistory validates every stored message before each model request.",
    "tool declarations are memoised per snapshot tool array (server/providers/tool-declarations.ts): every row but 'a revision not rendered before' renders one snapshot again, as the requests of a turn on one revision do; that row gives each render a new array over the same schemas, as a registry switch does.",
  ]);
}
