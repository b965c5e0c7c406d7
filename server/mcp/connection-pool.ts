// The lazy pool of live MCP connections, one per connector key. Invariants:
// - A key has at most one connection; it is opened on first use, and a different config for the same
//   key closes the old connection (and kills its stdio child) and opens a new one.
// - The tool list is cached per connection, fetched across all pages, and re-fetched (debounced) when
//   the server sends notifications/tools/list_changed; `onToolsChanged` fires when the list differs.
// - A dropped connection (a stdio child that exited, a transport that closed, or an HTTP server that
//   stopped answering: see mcp-connection.ts) fails its pending calls at once with ToolError
//   "unavailable", turns `unhealthy` and is re-opened in the background with exponential backoff
//   (0.5 s doubling to 30 s; the ladder resets once a connection stayed up for 10 s). A caller that
//   needs the connection meanwhile does not wait for the backoff: it tries to connect at once.
// - Once shutdown has begun (`beginShutdown`, or `closeAll`) nothing connects, reconnects or spawns
//   again: a stdio child that dies with the app's own signal (Ctrl+C reaches the whole process
//   group) is not restarted, and a request for a connection fails with a ToolError.
// - Every failure a caller sees is a ToolError (cancelled, timeout, failed) written for the model.
//   `lastError` says what went wrong in words fit for any user; a stdio child's stderr never reaches
//   it (it may echo secrets): it stays in `recentStderr` and goes, redacted, to the operator's log.
// - A per-user stdio process (connection-keys.ts) unused for `idleTimeoutMs` and with no call under
//   way is stopped quietly (no health change, so no revision); the next use starts it again.
import { type JsonValue } from "../core/canonical.ts";
import { McpConnection } from "./mcp-connection.ts";
import type {
  ConnectionHealth,
  ConnectionPoolOptions,
  McpCallOptions,
  McpCallResult,
  McpTool,
} from "./connection-types.ts";
import { type ConnectorConfig } from "./transports.ts";

export class ConnectionPool {
  private readonly connections = new Map<string, McpConnection>();
  private isShuttingDown = false;
  /** When each key was last used, and how many uses (lists, calls) each has under way (for the idle stop). */
  private readonly lastUsed = new Map<string, number>();
  private readonly calls = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConnectionPoolOptions = {}) {}

  listTools(key: string, config: ConnectorConfig, signal?: AbortSignal): Promise<McpTool[]> {
    return this.using(key, () => this.connection(key, config).listTools(signal));
  }

  callTool(
    key: string,
    config: ConnectorConfig,
    name: string,
    args: Record<string, JsonValue>,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    return this.using(key, () => this.connection(key, config).callTool(name, args, options));
  }

  /** Runs `work` on a key counted as in use, so the idle stop leaves it alone (spawning included). */
  private async using<T>(key: string, work: () => Promise<T>): Promise<T> {
    this.touch(key);
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.calls.set(key, (this.calls.get(key) ?? 1) - 1);
      this.touch(key);
    }
  }

  /**
   * Stops the per-user stdio processes unused for `idleTimeoutMs` with no call under way (also run
   * by a timer); quietly, as a close the user did not cause. Returns the keys stopped.
   */
  stopIdle(now = Date.now()): string[] {
    const limit = this.options.idleTimeoutMs ?? 0;
    if (limit <= 0) return [];
    const stopped: string[] = [];
    for (const [key, connection] of this.connections) {
      if (!connection.isPerUserStdio() || (this.calls.get(key) ?? 0) > 0) continue;
      if (now - (this.lastUsed.get(key) ?? now) < limit) continue;
      this.connections.delete(key);
      this.lastUsed.delete(key);
      this.calls.delete(key);
      void connection.close({ silent: true });
      stopped.push(key);
    }
    return stopped;
  }

  private touch(key: string): void {
    this.lastUsed.set(key, Date.now());
    const limit = this.options.idleTimeoutMs ?? 0;
    if (limit <= 0 || this.sweeper) return;
    this.sweeper = setInterval(() => this.stopIdle(), Math.min(Math.max(limit / 4, 50), 60_000));
    this.sweeper.unref();
  }

  health(key: string): ConnectionHealth {
    return this.connections.get(key)?.health ?? "idle";
  }

  /** Every connection's key and health (for the cross-instance health board, health-board.ts). */
  healthEntries(): [string, ConnectionHealth][] {
    return [...this.connections].map(([key, connection]) => [key, connection.health]);
  }

  /** The last connection problem for this key, fit to show users (never quotes the server's stderr). */
  lastError(key: string): string | null {
    return this.connections.get(key)?.lastError ?? null;
  }

  /** A stdio child's last stderr lines, for the server's own use only: they may hold secrets. */
  recentStderr(key: string): string[] {
    return this.connections.get(key)?.stderrTail() ?? [];
  }

  async close(key: string): Promise<void> {
    await this.connections.get(key)?.close();
  }

  /** From now on no connection opens or re-opens (synchronous: call it as the signal arrives). */
  beginShutdown(): void {
    this.isShuttingDown = true;
    for (const connection of this.connections.values()) connection.stopReconnecting();
  }

  /** Closes every connection; a stdio child gets its stdin closed, then SIGTERM, then SIGKILL. */
  async closeAll(): Promise<void> {
    this.beginShutdown();
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  /** The pids of the stdio children running now. */
  childPids(): number[] {
    return [...this.connections.values()].flatMap((connection) => connection.runningChildPid() ?? []);
  }

  /** SIGTERM to every stdio child, synchronously (for a process that exits now); the pids signalled. */
  killChildrenNow(): number[] {
    return [...this.connections.values()].flatMap((connection) => connection.killChildNow() ?? []);
  }

  private connection(key: string, config: ConnectorConfig): McpConnection {
    const configId = stableJson(config);
    const existing = this.connections.get(key);
    if (existing && existing.configId === configId && existing.health !== "closed") return existing;
    if (existing) void existing.close({ silent: true });
    const created = new McpConnection(key, config, configId, this.options);
    if (this.isShuttingDown) created.stopReconnecting();
    this.connections.set(key, created);
    return created;
  }
}

/** JSON with sorted object keys, so equal values compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
