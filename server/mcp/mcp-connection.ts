// One live MCP connection (one connector key, one config), owned by connection-pool.ts (its header has
// the invariants callers rely on): lazy connect, the cached tool list and its debounced list_changed
// refresh (tool-list-cache.ts), calls with cancellation / timeout / progress, reconnection with backoff
// (backoff.ts). A stdio child's stderr never reaches `lastError` or a ToolError (users and models see
// those): failures go to the operator's log (connector-log.ts). The transport is watched, not trusted
// (transport-watch.ts). A session the server no longer knows (404) is replaced silently and the request
// sent once more. Users and models see the connector's name (`nameOf`), never the pool key (ids).
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

import { type JsonValue } from "../core/canonical.ts";
import { isToolError, type ToolError } from "../core/tool-source.ts";
import { ReconnectTimer } from "./backoff.ts";
import { abortError, callFailure, describe, isSessionLost, isTransportFailure, untilAborted } from "./call-errors.ts";
import { requestToolCall } from "./call-request.ts";
import {
  AUTHORIZATION_NEEDED,
  closedError,
  connectError,
  unauthorizedError,
  wentAwayError,
  withAdminHint,
} from "./connection-errors.ts";
import { ConnectionHealthState, notifyListener } from "./connection-health.ts";
import { connectClient, killChild } from "./connection-transport.ts";
import {
  type ConnectionHealth,
  type ConnectionPoolOptions,
  type McpCallOptions,
  type McpCallResult,
  type McpTool,
} from "./connection-types.ts";
import { ConnectorFailureLog } from "./connector-log.ts";
import { parseConnectionKey } from "./connection-keys.ts";
import { listAllTools } from "./list-tools.ts";
import { type ProgressListeners } from "./progress-watch.ts";
import { ToolListCache } from "./tool-list-cache.ts";
import { clientErrorAction, probeTransport } from "./transport-watch.ts";
import { type ConnectorConfig, LineTail, STDERR_TAIL_LINES } from "./transports.ts";

const CLIENT_INFO = { name: "patchbay", version: "0.1.0" };

export class McpConnection {
  private readonly healthState = new ConnectionHealthState((health) =>
    this.options.onHealthChanged?.(this.key, health),
  );
  lastError: string | null = null;
  /** One tail for the connection's whole life, so a crash's last words survive the restart. */
  private readonly stderr = new LineTail(STDERR_TAIL_LINES);
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private readonly toolList: ToolListCache;
  private dropReason: string | null = null;
  /** The connected stdio child, until it is known to be gone (dropped, or close() finished). */
  private childPid: number | null = null;
  private readonly reconnect = new ReconnectTimer();
  private readonly failureLog = new ConnectorFailureLog();
  /** The ping under way after a transport error, so a burst of errors sends one. */
  private probing: Promise<void> | null = null;
  /** Progress listeners by progressToken, fed straight from the transport (progress-watch.ts). */
  private readonly progress: ProgressListeners = new Map();

  constructor(
    readonly key: string,
    private readonly config: ConnectorConfig,
    readonly configId: string,
    private readonly options: ConnectionPoolOptions,
  ) {
    const list = async (client: Client, keep: (tools: McpTool[]) => void) => {
      const tools = await listAllTools(client, this.connectTimeoutMs);
      if (client === this.client) keep(tools);
      return tools;
    };
    this.toolList = new ToolListCache(
      (keep) => this.withSession((client) => list(client, keep), undefined, this.connectTimeoutMs),
      () => notifyListener(() => this.options.onToolsChanged?.(this.key)),
      options.listChangedDebounceMs ?? 100,
    );
  }

  get health(): ConnectionHealth {
    return this.healthState.current;
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 10_000;
  }

  /** What users and models call this connection: the connector's name, never the pool key. */
  get name(): string {
    return this.options.nameOf?.(this.key) ?? this.key;
  }

  listTools(signal?: AbortSignal): Promise<McpTool[]> {
    const kept = this.toolList.current;
    if (this.client && kept) return Promise.resolve(kept);
    return untilAborted(this.toolList.loadShared(), signal);
  }

  callTool(name: string, args: Record<string, JsonValue>, options: McpCallOptions): Promise<McpCallResult> {
    const { signal, timeoutMs } = options;
    return this.withSession((client) => requestToolCall(client, name, args, options, this.progress), signal, timeoutMs);
  }

  async close({ silent = false } = {}): Promise<void> {
    if (this.health === "closed") return;
    this.healthState.isSilent = silent;
    this.healthState.set("closed");
    this.reconnect.cancel();
    this.toolList.cancelRefresh();
    const client = this.client;
    this.client = null;
    this.toolList.forget();
    await Promise.allSettled([client?.close(), this.connecting]);
    this.childPid = null; // the SDK's close ends with SIGKILL if need be
  }

  /**
   * `work` on the live client (connecting first). A 404 for the session means the server did not
   * process the request: a new session, and `work` once more. Other failures become ToolErrors.
   */
  private async withSession<T>(
    work: (client: Client) => Promise<T>,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await untilAborted(this.connect(), signal);
      try {
        return await work(client);
      } catch (error) {
        if (attempt === 1 && isSessionLost(error) && !signal?.aborted) {
          this.forgetSession(client);
          continue;
        }
        throw this.callError(error, client, signal, timeoutMs);
      }
    }
  }

  /** Cancels a pending reconnect and refuses every later connect; a live client stays until close(). */
  stopReconnecting(): void {
    this.reconnect.stop();
  }

  private connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.health === "closed" || this.reconnect.isStopped) return Promise.reject(this.closedError());
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<Client> {
    this.reconnect.cancel();
    this.healthState.set("connecting");
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
      this.toolList.refreshSoon(
        () => client === this.client,
        (error) => (this.lastError = describe(error)),
      ),
    );
    client.onclose = () => this.dropped(client);
    client.onerror = (error) => {
      const action = clientErrorAction(error);
      if (action === "watch") this.watchTransport(client, error);
      else if (action === "record") this.lastError = describe(error);
    };
    let childPid: () => number | null;
    try {
      const needs = { stderr: this.stderr, progress: this.progress, timeoutMs: this.connectTimeoutMs };
      childPid = await connectClient(client, this.key, this.config, this.options, needs);
    } catch (error) {
      void client.close().catch(() => undefined);
      if (this.health === "closed") throw this.closedError();
      // Unauthorized: no backoff retries, each would start a new authorization and void the user's URL.
      if (error instanceof UnauthorizedError) throw this.needsAuthorization();
      const reason = isToolError(error) ? `no answer within ${this.connectTimeoutMs} ms` : describe(error);
      this.failed(`Could not connect: ${reason}`);
      throw connectError(this.name, this.config, reason);
    }
    if (this.health === "closed") {
      await client.close();
      throw this.closedError();
    }
    this.client = client;
    this.childPid = childPid();
    this.reconnect.connected();
    this.failureLog.connected();
    this.healthState.set("ready");
    return client;
  }

  /** A transport error on the live connection: lost, or pinged first (transport-watch.ts). */
  private watchTransport(client: Client, error: Error): void {
    if (client !== this.client || this.config.kind === "stdio" || this.probing) return;
    const probe = probeTransport(client, this.config.kind, error, {
      isCurrent: () => client === this.client,
      lose: (reason) => this.loseConnection(client, reason),
      renewSession: () => {
        this.forgetSession(client);
        this.toolList.load().catch(() => undefined);
      },
    });
    this.probing = probe?.finally(() => (this.probing = null)) ?? null;
  }

  /** Closes a connection whose server is gone: its pending calls fail now, and reconnection starts. */
  private loseConnection(client: Client, reason: string): void {
    if (client !== this.client) return;
    this.dropReason = reason;
    void client.close().catch(() => undefined);
  }

  /**
   * Drops a session the server no longer knows, without a change of health: the next use opens a
   * new session (the SDK's initialize) on a new transport. The cached tool list stays until then.
   */
  private forgetSession(client: Client): void {
    if (client !== this.client) return;
    this.client = null;
    this.childPid = null;
    void client.close().catch(() => undefined);
  }

  private dropped(client: Client): void {
    if (client !== this.client) return;
    this.client = null;
    this.childPid = null; // the transport closes when the child's pipes do
    this.toolList.forget();
    this.toolList.cancelRefresh();
    if (this.health === "closed") return;
    this.failed(this.dropReason ?? "The server closed the connection.");
    this.dropReason = null;
  }

  /** `message` is shown to users: it must not quote the server's stderr (the operator log gets that). */
  private failed(message: string): void {
    this.lastError = withAdminHint(this.config, message);
    const name = this.options.describeKey?.(this.key) ?? this.key;
    this.failureLog.failed(name, message, this.stderr.lines(), this.config);
    this.healthState.set("unhealthy");
    // A failed attempt records its error and schedules the next one itself.
    this.reconnect.afterFailure(() => void this.toolList.load().catch(() => undefined));
  }

  private callError(error: unknown, client: Client, signal: AbortSignal | undefined, timeoutMs: number): ToolError {
    if (isToolError(error)) return error;
    if (signal?.aborted) return abortError(signal);
    if (error instanceof UnauthorizedError) {
      // Tokens revoked or refresh refused mid-session: drop the client and wait for the user.
      if (client === this.client) {
        this.client = null;
        this.toolList.forget();
        void client.close().catch(() => undefined);
      }
      return this.needsAuthorization();
    }
    if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) {
      return wentAwayError(this.name, this.config);
    }
    if (isTransportFailure(error)) {
      this.loseConnection(client, `The server became unreachable: ${describe(error)}`);
      return wentAwayError(this.name, this.config);
    }
    return callFailure(error, this.name, timeoutMs);
  }

  /** The server wants the user to (re)authorize (no tokens yet, refresh refused, or more scope). */
  private needsAuthorization(): ToolError {
    this.healthState.set("needs_authorization");
    this.lastError = AUTHORIZATION_NEEDED;
    return unauthorizedError(this.name);
  }

  private closedError(): ToolError {
    return closedError(this.name, this.reconnect.isStopped && this.health !== "closed");
  }

  /** SIGTERM to the stdio child, synchronously (connection-transport.ts); the pid signalled, if any. */
  killChildNow(): number | null {
    return this.childPid === null ? null : killChild(this.childPid);
  }

  /** A stdio process of one user (key `connectorId:userId`, see connection-keys.ts): stopped when idle. */
  isPerUserStdio(): boolean {
    return this.config.kind === "stdio" && parseConnectionKey(this.key).userId !== null;
  }

  /** The running stdio child's pid, or null. */
  runningChildPid(): number | null {
    return this.childPid;
  }

  /** For the server's own use only (e.g. the operator log): stderr can hold secrets. */
  stderrTail(): string[] {
    return this.stderr.lines();
  }
}
