// A persona consulted as a tool: the call `persona.<slug>` of a turn starts a nested run with the
// persona's own model (or the chat's), its own system prompt and its own tools, and the run's final
// text is the call's result. Invariants:
// - Its tools are always within the chat's current tools: before every request it takes the chat's
//   latest snapshot and keeps only what the persona's allowlist admits (and, for a read-only
//   persona, only tools marked read-only), never a sub-agent: depth is 1 (docs/sub-agents.md), and
//   never the talk-back built-ins, which speak to the chat's user and end the chat's turn.
// - Policy applies inside: `ask` tools wait for the user's approval like a turn's (tool-round.ts),
//   the approval belonging to the parent turn, so Stop and Apply now expire it too.
// - The parent turn's AbortSignal (Stop, Apply now, a lost lease) cancels the run and its running
//   tools; the turn then ends as aborted, with the same kept-rounds rule as any turn (the round
//   holding the call is not kept, so a restarted turn calls the sub-agent again, on the new tools).
// - Its own step cap and timeout; at the cap one last request without tools asks for the answer.
// - Canonical messages and the audit of every request are stored (sub-agent-store.ts).
import type { CanonicalMessage, ToolCallPart, ToolResultPart } from "../core/canonical.ts";
import { isAllowedByPersona } from "../core/tool-policy.ts";
import { toolErrorResult, type SourceSnapshot, type ToolOutcome } from "../core/tool-source.ts";
import type { Db } from "../db/client.ts";
import { isAppError } from "../errors.ts";
import { PERSONA_CONNECTOR } from "../mcp/connector-names.ts";
import { slugPersonas } from "../mcp/sub-agent-tools.ts";
import { limitResult, planToolCalls } from "../policy/limits.ts";
import {
  SUB_AGENT_DEFAULT_STEPS,
  SUB_AGENT_DEFAULT_TIMEOUT_SEC,
  subAgentOf,
  type SubAgentSettings,
} from "../policy/personas.ts";
import { safeErrorMessage } from "../providers/safe-error.ts";
import { newRowId } from "./turn-sql.ts";
import { createSubAgentRun, saveSubAgentRun, type SubAgentRecord } from "./sub-agent-store.ts";
import { runSubAgentStep } from "./sub-agent-step.ts";
import { isTalkBackTool } from "./talk-back.ts";
import { runOneCall, StepAborted, type SubAgentRunner, type ToolRoundDeps } from "./tool-round.ts";
import { assertOfferedModel, type ServerModels } from "./turn-models.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";

export type SubAgentDeps = Omit<TurnDeps, "subAgents" | "system" | "maxSteps" | "flushIntervalMs"> & {
  serverModels: ServerModels;
};

type Persona = { id: string; name: string; systemPrompt: string; toolAllowlist: string[]; settings: SubAgentSettings };

/** The runner a turn's tool round hands `persona.<slug>` calls to. */
export function createSubAgentRunner(turn: TurnSpec, deps: SubAgentDeps): SubAgentRunner {
  const prefix = `${PERSONA_CONNECTOR}.`;
  return {
    run: (call, tool, signal) => runSubAgent(turn, deps, call, tool.canonicalName.slice(prefix.length), signal),
  };
}

async function findPersona(
  db: Db,
  sessionId: string,
  slug: string,
): Promise<{ ownerId: string; persona: Persona | null }> {
  const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId }, select: { ownerId: true } });
  const rows = await db.persona.findMany({ where: { ownerId: session.ownerId, isSubAgent: true } });
  const found = slugPersonas(rows).find((entry) => entry.slug === slug)?.persona;
  const settings = found ? subAgentOf(found) : null;
  return { ownerId: session.ownerId, persona: found && settings ? { ...found, settings } : null };
}

/** The chat's current tools a sub-agent may use: its allowlist, read-only if so set, never a sub-agent. */
export function subAgentTools(
  snapshot: SourceSnapshot,
  persona: Pick<Persona, "toolAllowlist" | "settings">,
): SourceSnapshot {
  const tools = snapshot.tools.filter(
    (tool) =>
      tool.connectorId !== PERSONA_CONNECTOR &&
      !isTalkBackTool(tool.canonicalName) &&
      !tool.canonicalName.startsWith(`${PERSONA_CONNECTOR}.`) &&
      isAllowedByPersona(persona.toolAllowlist, tool.canonicalName) &&
      (!persona.settings.isReadOnly || tool.readOnly === true),
  );
  return { revision: snapshot.revision, tools };
}

async function runSubAgent(
  turn: TurnSpec,
  deps: SubAgentDeps,
  call: ToolCallPart,
  slug: string,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const { ownerId, persona } = await findPersona(deps.db, turn.sessionId, slug);
  if (!persona) return toolErrorResult("unknown_tool", `The sub-agent ${call.name} is no longer available.`);
  const own = persona.settings.model;
  const model = own ?? { provider: turn.provider, model: turn.model, accountId: turn.accountId };
  if (own) {
    try {
      await assertOfferedModel(deps.db, ownerId, { ...own, accountId: own.accountId ?? null }, deps.serverModels);
    } catch (error) {
      return toolErrorResult("failed", isAppError(error) ? error.message : "The sub-agent's model is not available.");
    }
  }
  const task = typeof call.args.task === "string" ? call.args.task : JSON.stringify(call.args.task ?? "");
  const context = typeof call.args.context === "string" && call.args.context.trim() ? call.args.context : null;
  const text = context ? `${task}\n\nContext:\n${context}` : task;
  const run: SubAgentRecord = {
    id: newRowId(),
    sessionId: turn.sessionId,
    turnId: turn.id,
    callId: call.id,
    personaId: persona.id,
    personaName: persona.name,
    provider: model.provider,
    model: model.model,
    accountId: model.accountId ?? null,
    status: "running",
    messages: [{ id: newRowId(), role: "user", parts: [{ type: "text", text }] }],
    requests: [],
    inputTokens: 0,
    outputTokens: 0,
    error: null,
  };
  await createSubAgentRun(deps.db, run);
  const timeoutSec = persona.settings.timeoutSec ?? SUB_AGENT_DEFAULT_TIMEOUT_SEC;
  const timeout = AbortSignal.timeout(timeoutSec * 1000);
  const runSignal = AbortSignal.any([signal, timeout]);
  try {
    const answer = await runSteps(turn, deps, persona, run, runSignal);
    if (runSignal.aborted) throw new StepAborted();
    return await finish(deps.db, run, "completed", null, { output: answer, isError: false });
  } catch (error) {
    if (signal.aborted) {
      await finish(deps.db, run, "cancelled", null, null).catch(() => undefined);
      throw new StepAborted();
    }
    const failure = timeout.aborted
      ? { code: "timeout", message: `The sub-agent did not finish within ${timeoutSec} s.` }
      : {
          code: "failed",
          message: `The sub-agent failed: ${isAppError(error) ? error.message : safeErrorMessage(error)}`,
        };
    return finish(
      deps.db,
      run,
      "failed",
      failure,
      toolErrorResult(failure.code === "timeout" ? "timeout" : "failed", failure.message),
    );
  }
}

async function finish(
  db: Db,
  run: SubAgentRecord,
  status: SubAgentRecord["status"],
  error: SubAgentRecord["error"],
  outcome: ToolOutcome | null,
): Promise<ToolOutcome> {
  run.status = status;
  run.error = error;
  await saveSubAgentRun(db, run);
  return outcome ?? toolErrorResult("cancelled", "The sub-agent was cancelled.");
}

/** The step loop; resolves with the run's final text. */
async function runSteps(
  turn: TurnSpec,
  deps: SubAgentDeps,
  persona: Persona,
  run: SubAgentRecord,
  signal: AbortSignal,
): Promise<string> {
  const maxSteps = persona.settings.maxSteps ?? SUB_AGENT_DEFAULT_STEPS;
  for (let index = 0; index <= maxSteps; index++) {
    const isFinal = index === maxSteps;
    const snapshot = subAgentTools(await deps.tools.snapshot(turn.sessionId), persona);
    const step = { run, system: persona.systemPrompt, snapshot, index, resolveModel: deps.resolveModel };
    const { draft, request } = await runSubAgentStep(isFinal ? { ...step, finalAfter: maxSteps } : step, signal);
    if (signal.aborted) throw new StepAborted();
    run.requests.push(request);
    run.inputTokens += request.inputTokens ?? 0;
    run.outputTokens += request.outputTokens ?? 0;
    run.messages.push({ id: newRowId(), role: "assistant", parts: draft.parts });
    if (draft.error) throw new Error(draft.error);
    await saveSubAgentRun(deps.db, run);
    if (draft.toolCalls.length === 0 || isFinal) return finalText(run.messages);
    await runNestedTools(turn, deps, run, draft.toolCalls, snapshot, signal);
  }
  return finalText(run.messages);
}

function finalText(messages: CanonicalMessage[]): string {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return "";
  return last.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("")
    .trim();
}

/** The calls of one sub-agent answer, in order, through the same path as a turn's (policy, approvals, timeout). */
async function runNestedTools(
  turn: TurnSpec,
  deps: SubAgentDeps,
  run: SubAgentRecord,
  calls: ToolCallPart[],
  snapshot: SourceSnapshot,
  signal: AbortSignal,
): Promise<void> {
  const roundDeps: ToolRoundDeps = {
    db: deps.db,
    tools: deps.tools,
    toolTimeoutMs: deps.toolTimeoutMs,
    limits: deps.limits,
  };
  const plan = planToolCalls(calls.length, deps.limits, 0);
  const message: CanonicalMessage & { role: "tool" } = { id: newRowId(), role: "tool", parts: [] };
  run.messages.push(message);
  for (const [index, call] of calls.entries()) {
    if (signal.aborted) throw new StepAborted();
    const started = Date.now();
    const verdict = plan[index]!;
    const outcome =
      verdict === "run"
        ? await runOneCall(turn, roundDeps, snapshot, call, signal)
        : limitResult(verdict, deps.limits.perResponse);
    if (signal.aborted) throw new StepAborted();
    const result: ToolResultPart = {
      type: "tool-result",
      callId: call.id,
      name: call.name,
      output: outcome.output,
      isError: outcome.isError,
      durationMs: Date.now() - started,
    };
    message.parts.push(result);
    await saveSubAgentRun(deps.db, run);
  }
}
