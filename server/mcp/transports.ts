// How Patchbay reaches one MCP server: a connector config (stdio child process, Streamable HTTP or
// legacy SSE) becomes an SDK client transport. Invariants: a stdio child never inherits the app's
// environment (which holds secrets) — it gets the SDK's short safe list (PATH, HOME, USER, SHELL,
// TERM, LOGNAME) plus the connector's own `env`; its stderr is piped into a bounded tail kept for
// diagnostics, which only the operator's log sees, with the connector's env values redacted
// (connector-log.ts): never a browser, never a model.
import { type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type FetchLike, type Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export type ConnectorConfig =
  | {
      kind: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      /** One process for every user (stateless servers only); default: one process per user. */
      shared?: true;
    }
  | { kind: "streamable-http" | "sse"; url: string; headers: Record<string, string> };

/** A transport plus what it can tell about the server it reaches. */
export type CreatedTransport = {
  transport: Transport;
  /** The last lines the stdio child wrote to stderr (oldest first); always empty for HTTP. */
  stderrTail: () => string[];
  /** The stdio child's pid while it runs (for shutdown.ts); always null for HTTP. */
  childPid: () => number | null;
};

export const STDERR_TAIL_LINES = 50;
const MAX_LINE_CHARS = 1_000;

/**
 * `stderr` collects a stdio child's output; pass one tail to keep it across restarts. `authProvider`
 * (HTTP / SSE only) makes the SDK run the MCP authorization flow on 401 / 403 insufficient_scope;
 * `fetch` (HTTP / SSE only) replaces the global fetch, e.g. with guardedFetch (remote-access.ts).
 */
export function createTransport(
  config: ConnectorConfig,
  stderr = new LineTail(STDERR_TAIL_LINES),
  authProvider?: OAuthClientProvider,
  fetch?: FetchLike,
): CreatedTransport {
  if (config.kind === "stdio") return createStdioTransport(config, stderr);
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: { ...config.headers } };
  const transport =
    config.kind === "sse"
      ? new SSEClientTransport(url, { requestInit, authProvider, fetch })
      : new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch });
  return { transport, stderrTail: () => [], childPid: () => null };
}

/** The environment a stdio child starts with: the SDK's safe defaults, then the connector's own. */
export function childEnvironment(env: Record<string, string>): Record<string, string> {
  return { ...getDefaultEnvironment(), ...env };
}

function createStdioTransport(config: Extract<ConnectorConfig, { kind: "stdio" }>, tail: LineTail): CreatedTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: childEnvironment(config.env),
    cwd: config.cwd,
    stderr: "pipe",
  });
  // The SDK hands out the piped stream before start(), so early output is not lost.
  transport.stderr?.on("data", (chunk: Buffer | string) => tail.push(chunk.toString()));
  return { transport, stderrTail: () => tail.lines(), childPid: () => transport.pid };
}

/** Keeps the last `limit` complete lines of a text stream (plus any unterminated last line). */
export class LineTail {
  private readonly complete: string[] = [];
  private partial = "";

  constructor(private readonly limit: number) {}

  push(text: string): void {
    const pieces = (this.partial + text).split(/\r?\n/);
    this.partial = clip(pieces.pop() ?? "");
    for (const line of pieces) this.complete.push(clip(line));
    if (this.complete.length > this.limit) this.complete.splice(0, this.complete.length - this.limit);
  }

  lines(): string[] {
    const all = this.partial ? [...this.complete, this.partial] : [...this.complete];
    return all.slice(-this.limit);
  }
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}
