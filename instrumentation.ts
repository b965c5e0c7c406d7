// Next.js calls register() once when a server process starts. Patchbay uses it to open the
// database (applying migrations) and start the session manager, so turns left streaming by a
// previous process are swept to `interrupted` at boot rather than on the first request, and to
// install the graceful shutdown: on SIGTERM / SIGINT the session manager stops and the MCP pool
// closes, so no stdio MCP server outlives the app (server/mcp/shutdown.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getSessionManager, installShutdown } = await import("./server/session/app-runtime.ts");
  const manager = await getSessionManager();
  await installShutdown(() => manager.stop());
}
