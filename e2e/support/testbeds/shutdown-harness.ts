// A process for shutdown.test.ts, not part of the app: it runs a connection pool with two stdio MCP
// children (server-everything and our fixture), installs the graceful shutdown the app installs
// (unless --without-shutdown), prints the children's pids as JSON on stdout, then waits for a signal.
// --exit-first adds a SIGTERM handler that exits at once, as Next.js does once its server is closed.
import { BIN, fixtureStdioConfig } from "../mcp-fixture/launch.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { installGracefulShutdown } from "../../../server/mcp/shutdown.ts";

const flags = new Set(process.argv.slice(2));
const pool = new ConnectionPool();
const everything = { kind: "stdio" as const, command: BIN("mcp-server-everything"), args: ["stdio"], env: {} };
await Promise.all([pool.listTools("everything", everything), pool.listTools("fixture", fixtureStdioConfig())]);
// Busy servers: a long call in flight keeps each child's event loop alive after its stdin closes, so
// without a shutdown they would run on, orphaned, until their call ends a minute later.
const inFlight = { signal: new AbortController().signal, timeoutMs: 120_000 };
const long = { duration: 60, steps: 60 };
void pool.callTool("everything", everything, "trigger-long-running-operation", long, inFlight).catch(() => undefined);
void pool.callTool("fixture", fixtureStdioConfig(), "slow", { ms: 60_000 }, inFlight).catch(() => undefined);
if (!flags.has("--without-shutdown")) {
  installGracefulShutdown({
    steps: [{ name: "MCP connections", run: () => pool.closeAll() }],
    killChildrenNow: () => pool.killChildrenNow(),
  });
}
if (flags.has("--exit-first")) process.on("SIGTERM", () => process.exit(143));
process.stdout.write(`${JSON.stringify({ pids: pool.childPids() })}\n`);
setInterval(() => undefined, 60_000); // alive until a signal
