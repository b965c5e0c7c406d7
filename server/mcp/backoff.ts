// The reconnect ladder of one MCP connection: the first retry 0.5 s after a failure, each further
// consecutive failure doubling the wait up to 30 s; a connection that stayed up for 10 s before it
// dropped starts the ladder again. The clock is injectable so the ladder is tested without waiting.
// ReconnectTimer holds the one attempt that waits on the ladder.
export const BACKOFF_START_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
export const STABLE_AFTER_MS = 10_000;

export class ReconnectBackoff {
  private failures = 0;
  private readyAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** The connection is up; if it stays up for STABLE_AFTER_MS, its next failure starts the ladder again. */
  connected(): void {
    this.readyAt = this.now();
  }

  /** A connect failed or the connection dropped: how long to wait before the next attempt. */
  nextDelay(): number {
    if (this.readyAt !== null && this.now() - this.readyAt >= STABLE_AFTER_MS) this.failures = 0;
    this.readyAt = null;
    this.failures += 1;
    return Math.min(BACKOFF_START_MS * 2 ** (this.failures - 1), BACKOFF_CAP_MS);
  }
}

/** The reconnects of one connection: the ladder, and at most one pending attempt; none once stopped. */
export class ReconnectTimer {
  private timer: NodeJS.Timeout | undefined;
  /** Shutdown has begun: never connect or reconnect again (see ConnectionPool.beginShutdown). */
  isStopped = false;

  constructor(private readonly backoff = new ReconnectBackoff()) {}

  /** The connection is up (see ReconnectBackoff.connected). */
  connected(): void {
    this.backoff.connected();
  }

  /** A connect failed or the connection dropped: `attempt` after the ladder's next delay, unless one is pending. */
  afterFailure(attempt: () => void): void {
    const delayMs = this.backoff.nextDelay();
    if (this.timer || this.isStopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      attempt();
    }, delayMs);
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Cancels the pending attempt and refuses every later one. */
  stop(): void {
    this.isStopped = true;
    this.cancel();
  }
}
