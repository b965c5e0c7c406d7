// The turns this instance runs: each in the background under its own AbortController, until it ends.
// A turn ends here only through runTurn's outcome (its closing status written, waiting out a database
// outage) or a crash (recorded as `failed` with its true reason); an aborted turn writes nothing, as
// whoever aborted it (cancel, restart, a lost lease, shutdown) has recorded the status already.
import { setImmediate as nextLoopTurn } from "node:timers/promises";

import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { retryWhileDatabaseUnavailable } from "./database-retry.ts";
import { finishTurn } from "./turn-end.ts";
import { runTurn } from "./turn-runner.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";

type Running = { controller: AbortController; spec: TurnSpec; done: Promise<void> };

export class LocalTurns {
  private readonly running = new Map<string, Running>();

  /**
   * Runs a stored, announced turn in the background. Resolves one turn of the event loop later, so
   * that the caller's answer (the send's, Apply now's) is written after the turn's first model
   * request has gone out, not ahead of it: up to the provider's socket (render, the AI SDK's
   * request) a started turn does in-memory work, which writing the answer first would delay. Traced
   * in the server, two alternating pairs of 30 sends: claim → provider request 1.18–1.34 ms before,
   * 0.80–0.84 ms after. A turn that waits for I/O first (a registry rebuild) holds nothing up.
   */
  run(spec: TurnSpec, deps: TurnDeps): Promise<void> {
    const controller = new AbortController();
    const done = execute(spec, deps, controller).finally(() => this.running.delete(spec.id));
    this.running.set(spec.id, { controller, spec, done });
    return nextLoopTurn();
  }

  has(turnId: string): boolean {
    return this.running.has(turnId);
  }

  ids(): string[] {
    return [...this.running.keys()];
  }

  /** Aborts the turn's stream and any tool call of it, if it runs here. */
  abort(turnId: string): void {
    this.running.get(turnId)?.controller.abort();
  }

  /** Aborts every turn running here and waits until each has stopped. */
  async abortAll(): Promise<void> {
    for (const run of this.running.values()) run.controller.abort();
    await Promise.all([...this.running.values()].map((run) => run.done));
  }
}

async function execute(spec: TurnSpec, deps: TurnDeps, controller: AbortController): Promise<void> {
  const { db } = deps;
  try {
    const outcome = await runTurn(spec, deps, controller.signal);
    if (outcome.status === "aborted") return; // whoever aborted it has recorded the status
    const end = { status: outcome.status, error: outcome.error ?? null, usage: outcome.usage };
    await retryWhileDatabaseUnavailable(() => finishTurn(db, spec, end));
  } catch (error) {
    console.error(`[patchbay] turn ${spec.id} crashed`, error);
    // The true reason: an outage longer than the writes wait for, or a server error.
    const reason = isDatabaseUnavailable(error)
      ? { code: "unavailable", message: "The database was unreachable for too long; the answer so far is kept." }
      : { code: "internal", message: "The turn stopped on a server error." };
    await retryWhileDatabaseUnavailable(() => finishTurn(db, spec, { status: "failed", error: reason })).catch(
      () => undefined,
    );
  }
}
