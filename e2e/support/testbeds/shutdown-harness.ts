// A process for shutdown.test.ts, not part of the app: it runs a connection pool with two stdio MCP
// children (server-everything and our fixture), installs the graceful shutdown the app installs
// (unless --without-shutdown), prints the children's pids as JSON on stdout, then waits for a signal.
// Like the app's registry, a connection whose health changes is listed again at once, and the first
// shutdown step takes a while (the app's stops the running turns). --exit-first adds a SIGTERM
// handler that exits at once, as Next.js does once its server is closed. --spawn-log=FILE appends the
// pid of every stdio child started to FILE; --without-begin leaves out the pool's beginShutdown.
import { BIN, fixtureStdioConfig } from "../mcp-fixture/launch.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { installGracefulShutdown } from "../../../server/mcp/shutdown.ts";
import type { ConnectorConfig } from "../../../server/mcp/transports.ts";

const args = process.argv.slice(2);
const flags = new Set(args);
const spawnLog = args.find((arg) => arg.startsWith("--spawn-log="))?.slice("--spawn-log=".length);

/** The same server, started through sh so that its pid goes to the spawn log first (exec keeps it). */
function logged(config: ConnectorConfig): ConnectorConfig {
  if (!spawnLog || config.kind !== "stdio") return config;
  const script = 'echo "$$" >> "$0"; exec "$@"';
  return { ...config, command: "/bin/sh", args: ["-c", script, spawnLog, config.command, ...config.args] };
}

const configs: Record<string, ConnectorConfig> = {
  everything: logged({ kind: "stdio", command: BIN("mcp-server-everything"), args: ["stdio"], env: {} }),
  fixture: logged(fixtureStdioConfig()),
};
const pool: ConnectionPool = new ConnectionPool({
  onHealthChanged: (key) => void pool.listTools(key, configs[key]!).catch(() => undefined),
});
await Promise.all(Object.entries(configs).map(([key, config]) => pool.listTools(key, config)));
// Busy servers: a long call in flight keeps each child's event loop alive after its stdin closes, so
// without a shutdown they would run on, orphaned, until their call ends a minute later.
const inFlight = { signal: new AbortController().signal, timeoutMs: 120_000 };
const long = { duration: 60, steps: 60 };
void pool.callTool("everything", configs.everything!, "trigger-long-running-operation", long, inFlight).catch(() => 0);
void pool.callTool("fixture", configs.fixture!, "slow", { ms: 60_000 }, inFlight).catch(() => undefined);
if (!flags.has("--without-shutdown")) {
  installGracefulShutdown({
    begin: flags.has("--without-begin") ? undefined : () => pool.beginShutdown(),
    steps: [
      { name: "session manager", run: () => new Promise((resolve) => setTimeout(resolve, 500)) },
      { name: "MCP connections", run: () => pool.closeAll() },
    ],
    killChildrenNow: () => pool.killChildrenNow(),
  });
}
if (flags.has("--exit-first")) process.on("SIGTERM", () => process.exit(143));
process.stdout.write(`${JSON.stringify({ pids: pool.childPids() })}\n`);
setInterval(() => undefined, 60_000); // alive until a signal
