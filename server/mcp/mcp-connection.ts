// One live MCP connection (one connector key, one config): lazy connect, the cached tool list and its
// debounced list_changed refresh, calls with cancellation / timeout / progress, and reconnection with
// exponential backoff after a drop (backoff.ts). The pool in connection-pool.ts owns these; see its header
// for the invariants callers rely on. A stdio child's stderr never reaches `lastError` or a ToolError
// (both are shown to users and models): failures are logged for the operator (connector-log.ts).
// The transport is watched, not trusted: an HTTP stream that breaks is followed by a ping, and a
// server that does not answer it (or an SSE stream that breaks: its session dies with it) closes the
// connection at once, which fails every pending call with "went away" instead of at its timeout.
// A session the server no longer knows (404, spec: "start a new session") is replaced silently and
// the request sent once more; health does not change for it. Users and models see the connector's
// name (`nameOf`), never the pool key, which holds ids.
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

import { type JsonValue } from "../core/canonical.ts";
import { isToolError, ToolError } from "../core/tool-source.ts";
import { ReconnectBackoff } from "./backoff.ts";
import {
  abortError,
  callFailure,
  describe,
  isSessionLost,
  isStreamRefused,
  isStreamTrouble,
  isTransportFailure,
  untilAborted,
} from "./call-errors.ts";
import { requestToolCall } from "./call-request.ts";
import {
  type ConnectionHealth,
  type ConnectionPoolOptions,
  type McpCallOptions,
  type McpCallResult,
  type McpTool,
} from "./connection-types.ts";
import { logConnectorFailure } from "./connector-log.ts";
import { parseConnectionKey } from "./connection-keys.ts";
import { listAllTools } from "./list-tools.ts";
import { watchProgress, type ProgressListeners } from "./progress-watch.ts";
import {
  type ConnectorConfig,
  type CreatedTransport,
  createTransport,
  LineTail,
  STDERR_TAIL_LINES,
} from "./transports.ts";
import { USER_DIR_PLACEHOLDER, userDirFor, usesUserDir, withUserDir } from "./user-dir.ts";

const CLIENT_INFO = { name: "patchbay", version: "0.1.0" };
/** Where a user is sent when an admin's stdio server fails: its stderr is in the server log only. */
const ADMIN_HINT = " Ask an administrator to check the server log.";
/** How long the ping after a broken HTTP stream may take before the server counts as gone. */
const PROBE_TIMEOUT_MS = 1_000;

export class McpConnection {
  health: ConnectionHealth = "idle";
  /** The last settled health listeners were told about. */
  private reportedHealth: ConnectionHealth = "idle";
  lastError: string | null = null;
  /** One tail for the connection's whole life, so a crash's last words survive the restart. */
  private readonly stderr = new LineTail(STDERR_TAIL_LINES);
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private tools: McpTool[] | null = null;
  private knownTools: McpTool[] | null = null;
  private toolsLoad: Promise<McpTool[]> | null = null;
  private toolsGeneration = 0;
  private readonly backoff = new ReconnectBackoff();
  private dropReason: string | null = null;
  private silent = false;
  /** Shutdown has begun: never connect or reconnect again (see ConnectionPool.beginShutdown). */
  private isStopping = false;
  /** The connected stdio child, until it is known to be gone (dropped, or close() finished). */
  private childPid: number | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The ping under way after a transport error, so a burst of errors sends one. */
  private probing: Promise<void> | null = null;
  /** Progress listeners by progressToken, fed straight from the transport (progress-watch.ts). */
  private readonly progress: ProgressListeners = new Map();

  constructor(
    readonly key: string,
    private readonly config: ConnectorConfig,
    readonly configId: string,
    private readonly options: ConnectionPoolOptions,
  ) {}

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 10_000;
  }

  /** What users and models call this connection: the connector's name, never the pool key. */
  get name(): string {
    return this.options.nameOf?.(this.key) ?? this.key;
  }

  listTools(signal?: AbortSignal): Promise<McpTool[]> {
    if (this.client && this.tools) return Promise.resolve(this.tools);
    return untilAborted(this.toolsLoad ?? this.loadTools(), signal);
  }

  async callTool(name: string, args: Record<string, JsonValue>, options: McpCallOptions): Promise<McpCallResult> {
    const { signal, timeoutMs } = options;
    for (let attempt = 1; ; attempt++) {
      const client = await untilAborted(this.connect(), signal);
      try {
        return await requestToolCall(client, name, args, options, this.progress);
      } catch (error) {
        // A 404 for the session means the server did not process the request: new session, send once more.
        if (attempt === 1 && isSessionLost(error) && !signal.aborted) {
          this.forgetSession(client);
          continue;
        }
        throw this.callError(error, client, signal, timeoutMs);
      }
    }
  }

  async close({ silent = false } = {}): Promise<void> {
    if (this.health === "closed") return;
    this.silent = silent;
    this.setHealth("closed");
    clearTimeout(this.retryTimer);
    clearTimeout(this.refreshTimer);
    const client = this.client;
    this.client = null;
    this.tools = null;
    await Promise.allSettled([client?.close(), this.connecting]);
    this.childPid = null; // the SDK's close ends with SIGKILL if need be
  }

  private loadTools(): Promise<McpTool[]> {
    const generation = ++this.toolsGeneration;
    const load = (async () => {
      for (let attempt = 1; ; attempt++) {
        const client = await this.connect();
        try {
          const tools = await listAllTools(client, this.connectTimeoutMs);
          if (generation === this.toolsGeneration && client === this.client) this.storeTools(tools);
          return tools;
        } catch (error) {
          if (attempt === 1 && isSessionLost(error)) {
            this.forgetSession(client);
            continue;
          }
          throw this.callError(error, client, undefined, this.connectTimeoutMs);
        }
      }
    })();
    this.toolsLoad = load;
    void load
      .finally(() => {
        if (this.toolsLoad === load) this.toolsLoad = null;
      })
      .catch(() => undefined);
    return load;
  }

  private storeTools(tools: McpTool[]): void {
    const changed = this.knownTools !== null && JSON.stringify(this.knownTools) !== JSON.stringify(tools);
    this.tools = tools;
    this.knownTools = tools;
    if (changed) notify(() => this.options.onToolsChanged?.(this.key));
  }

  private scheduleRefresh(client: Client): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      if (client !== this.client) return;
      this.loadTools().catch((error: unknown) => (this.lastError = describe(error)));
    }, this.options.listChangedDebounceMs ?? 100);
    this.refreshTimer.unref();
  }

  /** Cancels a pending reconnect and refuses every later connect; a live client stays until close(). */
  stopReconnecting(): void {
    this.isStopping = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.health === "closed" || this.isStopping) return Promise.reject(this.closedError());
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<Client> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.setHealth("connecting");
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.scheduleRefresh(client));
    client.onclose = () => this.dropped(client);
    client.onerror = (error) => {
      // Not problems: late answers to cancelled requests, and progress notifications, which
      // progress-watch.ts delivers itself (so the SDK finds no handler for them).
      if (/^Received a (response|progress notification) for an unknown/.test(error.message)) return;
      // A broken stream is checked before anybody is told (watchTransport); a lost session is
      // renewed by the request that met it.
      // A refused standalone GET stream is an answer: the server is there, and a lost session shows
      // on the next request (renewed there); probing would restart an authorization under way.
      if (isStreamRefused(error)) this.lastError = describe(error);
      else if (isStreamTrouble(error) || isSessionLost(error)) this.watchTransport(client, error);
      else this.lastError = describe(error);
    };
    let childPid = (): number | null => null;
    try {
      const created = await this.createTransport();
      childPid = created.childPid;
      // No signal for the SDK here: it would keep its listener and "cancel" initialize after success.
      const timeout = AbortSignal.timeout(this.connectTimeoutMs);
      await untilAborted(client.connect(created.transport, { timeout: this.connectTimeoutMs }), timeout);
      watchProgress(created.transport, this.progress);
    } catch (error) {
      void client.close().catch(() => undefined);
      if (this.health === "closed") throw this.closedError();
      if (error instanceof UnauthorizedError) {
        // No backoff retries: each would start a new authorization and void the URL the user holds.
        this.setHealth("needs_authorization");
        throw this.unauthorized();
      }
      const reason = isToolError(error) ? `no answer within ${this.connectTimeoutMs} ms` : describe(error);
      this.failed(`Could not connect: ${reason}`);
      throw new ToolError("unavailable", this.withHint(`The ${this.name} connector is unavailable: ${reason}`));
    }
    if (this.health === "closed") {
      await client.close();
      throw this.closedError();
    }
    this.client = client;
    this.childPid = childPid();
    this.backoff.connected();
    this.setHealth("ready");
    return client;
  }

  /** The SSRF check first; then every request (OAuth flow included) goes through the remote fetch. */
  private async createTransport(): Promise<CreatedTransport> {
    if (this.config.kind === "stdio") return createTransport(await this.stdioConfig(this.config), this.stderr);
    const { remote, authProvider } = this.options;
    await remote?.checkUrl(this.config.url);
    return createTransport(this.config, this.stderr, authProvider?.(this.key), remote?.fetchFor(this.config.url));
  }

  /**
   * After a transport error on a live connection: an SSE stream that broke took its session with it;
   * an HTTP stream that broke may be a hiccup, so the server is pinged. No answer: the connection
   * closes now (pending calls fail with "went away"). A 404 for the session: the server restarted
   * and is up, so a new session is opened in the background, tools and health unchanged.
   */
  private watchTransport(client: Client, error: Error): void {
    if (client !== this.client || this.config.kind === "stdio" || this.probing) return;
    if (this.config.kind === "sse") {
      this.loseConnection(client, `The server went away (${describe(error)}).`);
      return;
    }
    this.probing = client
      .ping({ timeout: PROBE_TIMEOUT_MS })
      .then(
        () => undefined,
        (failure: unknown) => {
          // An answer that asks for authorization is an answer: the server is there, and the request
          // that needs the authorization reports it to its caller.
          if (client !== this.client || failure instanceof UnauthorizedError) return;
          if (isSessionLost(failure)) {
            this.forgetSession(client);
            this.loadTools().catch(() => undefined);
          } else {
            this.loseConnection(client, `The server went away (${describe(failure)}).`);
          }
        },
      )
      .finally(() => (this.probing = null));
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
    this.tools = null;
    clearTimeout(this.refreshTimer);
    if (this.health === "closed") return;
    this.failed(this.dropReason ?? "The server closed the connection.");
    this.dropReason = null;
  }

  /** `message` is shown to users: it must not quote the server's stderr (the operator log gets that). */
  private failed(message: string): void {
    this.lastError = this.withHint(message);
    const name = this.options.describeKey?.(this.key) ?? this.key;
    logConnectorFailure(name, message, this.stderr.lines(), this.config);
    const delay = this.backoff.nextDelay();
    this.setHealth("unhealthy");
    if (this.retryTimer || this.isStopping) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      // A failed attempt records its error and schedules the next one itself.
      this.loadTools().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  private callError(error: unknown, client: Client, signal: AbortSignal | undefined, timeoutMs: number): ToolError {
    if (isToolError(error)) return error;
    if (signal?.aborted) return abortError(signal);
    if (error instanceof UnauthorizedError) {
      // Tokens revoked or refresh refused mid-session: drop the client and wait for the user.
      if (client === this.client) {
        this.client = null;
        this.tools = null;
        void client.close().catch(() => undefined);
      }
      this.setHealth("needs_authorization");
      return this.unauthorized();
    }
    if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) {
      return this.wentAway();
    }
    if (isTransportFailure(error)) {
      this.loseConnection(client, `The server became unreachable: ${describe(error)}`);
      return this.wentAway();
    }
    return callFailure(error, this.name, timeoutMs);
  }

  private wentAway(): ToolError {
    return new ToolError(
      "unavailable",
      this.withHint(
        `The ${this.name} connector's server went away during the call; its tools are unavailable until it is back.`,
      ),
    );
  }

  /** The server wants the user to (re)authorize (no tokens yet, refresh refused, or more scope). */
  private unauthorized(): ToolError {
    this.lastError = "Authorization needed: the user must connect their account to this connector.";
    return new ToolError("failed", `The ${this.name} connector needs the user to authorize Patchbay first.`);
  }

  /**
   * Listeners hear only settled changes: `connecting` is transient, so a retry that ends where it
   * started (e.g. needs_authorization again) reports nothing and rebuilds no registry.
   */
  private setHealth(health: ConnectionHealth): void {
    if (this.health === health) return;
    this.health = health;
    if (health === "connecting" || health === this.reportedHealth) return;
    this.reportedHealth = health;
    if (!this.silent) notify(() => this.options.onHealthChanged?.(this.key, health));
  }

  /** An admin's stdio server: its details are in the server log, so users are sent to the admin. */
  private withHint(message: string): string {
    return this.config.kind === "stdio" ? `${message.replace(/\.?$/, ".")}${ADMIN_HINT}` : message;
  }

  /**
   * Sends SIGTERM to the stdio child, synchronously: the last resort when the process is exiting
   * before close() could finish (shutdown.ts). Returns the pid signalled, if any.
   */
  killChildNow(): number | null {
    const pid = this.childPid;
    if (pid === null) return null;
    try {
      process.kill(pid, "SIGTERM");
      return pid;
    } catch {
      return null; // already gone
    }
  }

  /** A per-user process gets its `${PATCHBAY_USER_DIR}` (user-dir.ts); a shared one has none to get. */
  private async stdioConfig(config: Extract<ConnectorConfig, { kind: "stdio" }>) {
    if (!usesUserDir(config)) return config;
    const { connectorId, userId } = parseConnectionKey(this.key);
    if (userId === null || !this.options.userDataDir) {
      throw new Error(`${USER_DIR_PLACEHOLDER} is only available to a per-user server`);
    }
    return withUserDir(config, userDirFor(this.options.userDataDir, connectorId, userId));
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

  private closedError(): ToolError {
    if (this.isStopping && this.health !== "closed") {
      return new ToolError("unavailable", `The ${this.name} connector is unavailable: Patchbay is shutting down.`);
    }
    return new ToolError("unavailable", `The ${this.name} connector was closed.`);
  }
}

/** Listener errors must not break the pool. */
function notify(callback: () => void): void {
  try {
    callback();
  } catch {
    // The listener's own problem; the pool's state is already consistent.
  }
}
