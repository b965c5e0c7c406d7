// A connection's health (mcp-connection.ts) and who hears of it. Listeners hear only settled changes:
// `connecting` is transient, so a retry that ends where it started (e.g. needs_authorization again)
// reports nothing and rebuilds no registry; a connection closed silently reports nothing more.
// A listener's error never breaks the connection or the pool.
import { type ConnectionHealth } from "./connection-types.ts";

export class ConnectionHealthState {
  current: ConnectionHealth = "idle";
  /** The last settled health listeners were told about. */
  private reported: ConnectionHealth = "idle";
  isSilent = false;

  constructor(private readonly onSettled: (health: ConnectionHealth) => void) {}

  set(health: ConnectionHealth): void {
    if (this.current === health) return;
    this.current = health;
    if (health === "connecting" || health === this.reported) return;
    this.reported = health;
    if (!this.isSilent) notifyListener(() => this.onSettled(health));
  }
}

/** Listener errors must not break the pool. */
export function notifyListener(callback: () => void): void {
  try {
    callback();
  } catch {
    // The listener's own problem; the pool's state is already consistent.
  }
}
