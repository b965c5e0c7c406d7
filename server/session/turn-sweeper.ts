// The session manager's background work, from start() to stop(): it listens for cancel/restart
// notifications (`turnControl`) and aborts a local turn that is no longer ours to run; it renews this
// instance's leases (aborting turns that ended elsewhere) and interrupts turns whose lease lapsed; and
// with an instance lock (instance-lock.ts) it interrupts, every `livenessCheckMs`, the turns of
// instances whose lock is free. A slow round never piles up behind its interval. Turns running here
// are never swept.
import type { Db } from "../db/client.ts";
import { CHANNELS, onNotification } from "../db/notifier.ts";
import { findDeadTurnsIn, interruptTurns } from "./dead-turns.ts";
import type { InstanceLock } from "./instance-lock.ts";
import { findLapsedTurns, findOrphanedTurns, renewLeases } from "./lease-store.ts";
import type { LocalTurns } from "./local-turns.ts";

export type SweeperOptions = {
  db: Db;
  instanceId: string;
  leaseMs: number;
  instanceLock?: InstanceLock;
  livenessCheckMs?: number;
};

export class TurnSweeper {
  private stopControl: (() => void) | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private liveness: NodeJS.Timeout | null = null;
  private isTicking = false;
  private isCheckingLiveness = false;

  constructor(
    private readonly options: SweeperOptions,
    private readonly turns: LocalTurns,
  ) {}

  /** Listens for cancel/restart from other instances and sweeps lapsed leases. Idempotent. */
  start(): void {
    if (this.stopControl) return;
    this.stopControl = onNotification(CHANNELS.turnControl, (turnId) => void this.checkControl(turnId));
    const tick = () => void this.tick().catch((error: unknown) => console.error("[patchbay] turn sweep failed", error));
    this.sweeper = setInterval(tick, Math.max(500, Math.floor(this.options.leaseMs / 3)));
    this.sweeper.unref();
    tick();
    if (this.options.instanceLock) {
      const check = () =>
        void this.sweepOrphaned().catch((error: unknown) => console.error("[patchbay] liveness check failed", error));
      this.liveness = setInterval(check, this.options.livenessCheckMs ?? 1_000);
      this.liveness.unref();
      check();
    }
  }

  stop(): void {
    this.stopControl?.();
    this.stopControl = null;
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.liveness) clearInterval(this.liveness);
  }

  /** Interrupts the chat's turns whose instance died or whose lease lapsed; true if there were any. */
  async sweepDeadTurns(sessionId: string): Promise<boolean> {
    const self = { instanceId: this.options.instanceId, hasInstanceLock: !!this.options.instanceLock };
    return (await this.interrupt(await findDeadTurnsIn(this.options.db, sessionId, self))) > 0;
  }

  /** A control notification: abort the local run if the turn is no longer ours to run. */
  private async checkControl(turnId: string): Promise<void> {
    if (!this.turns.has(turnId)) return;
    const row = await this.options.db.turn.findUnique({
      where: { id: turnId },
      select: { status: true, cancelRequested: true },
    });
    if (!row || row.status !== "streaming" || row.cancelRequested) this.turns.abort(turnId);
  }

  /** Renews this instance's leases (aborting turns that ended elsewhere) and sweeps lapsed ones. */
  private async tick(): Promise<void> {
    if (this.isTicking) return; // a slow tick must not pile up behind the interval
    this.isTicking = true;
    try {
      await this.renewLeases();
      await this.sweepLapsed();
    } finally {
      this.isTicking = false;
    }
  }

  private async renewLeases(): Promise<void> {
    const ids = this.turns.ids();
    if (ids.length === 0) return;
    const ended = await renewLeases(this.options.db, {
      turnIds: ids,
      owner: this.options.instanceId,
      expiresAt: new Date(Date.now() + this.options.leaseMs),
    });
    for (const id of ended) this.turns.abort(id);
  }

  private async sweepLapsed(): Promise<void> {
    await this.interrupt(await findLapsedTurns(this.options.db, new Date()));
  }

  /** Interrupts the turns of instances whose lock is free (they died); one check at a time. */
  private async sweepOrphaned(): Promise<void> {
    if (this.isCheckingLiveness) return;
    this.isCheckingLiveness = true;
    try {
      await this.interrupt(await findOrphanedTurns(this.options.db, { exceptOwner: this.options.instanceId }));
    } finally {
      this.isCheckingLiveness = false;
    }
  }

  private interrupt(turns: { id: string; sessionId: string }[]): Promise<number> {
    return interruptTurns(this.options.db, turns, (id) => this.turns.has(id));
  }
}
