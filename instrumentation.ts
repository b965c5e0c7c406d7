// Next.js calls register() once when a server process starts. Patchbay uses it to open the
// database (applying migrations) and start the session manager, so turns left streaming by a
// previous process are swept to `interrupted` at boot rather than on the first request, and to
// install the graceful shutdown: on SIGTERM / SIGINT the session manager stops and the MCP pool
// closes, so no stdio MCP server outlives the app (server/mcp/shutdown.ts). Risky hosting settings
// are logged first (server/hosting-policy.ts; the unsafe ones already stopped env validation).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./server/env.ts");
  const { hostingWarnings } = await import("./server/hosting-policy.ts");
  for (const warning of hostingWarnings(env)) console.warn(`[patchbay] warning: ${warning}`);
  const { getSessionManager } = await import("./server/session/instance.ts");
  const manager = await getSessionManager();
  const { installShutdown } = await import("./server/mcp/instance.ts");
  await installShutdown(() => manager.stop());
}
