// Runs the OAuth-protected MCP test server (server.ts) as its own process, e.g. as a Playwright web
// server: `tsx e2e/support/mcp-oauth/main.ts <port>`. Prints `mcp-oauth listening on <url>` once ready.
import { startOAuthMcpServer } from "./server.ts";

const server = await startOAuthMcpServer({ port: Number(process.argv[2] ?? "0") });
process.stdout.write(`mcp-oauth listening on ${server.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void server.close().then(() => process.exit(0)));
}
