// Next.js calls register() once when a server process starts. Patchbay uses it to open the
// database (applying migrations) and start the session manager, so turns left streaming by a
// previous process are swept to `interrupted` at boot rather than on the first request, and to
// install the graceful shutdown: on SIGTERM / SIGINT / SIGHUP the session manager stops and the MCP pool
// closes, so no stdio MCP server outlives the app (server/mcp/shutdown.ts).
// A configuration error (server/env.ts) stops the process here with its message and exit code 1,
// instead of a server that answers every request with a 500. Risky hosting settings are logged
// next (server/hosting-policy.ts; the unsafe ones already stopped start-up). Last, the API lane
// (server/api/http-lane.ts) is left on globalThis for Patchbay's own server (server/cli/serve.ts),
// which answers the API's hot paths with it before Next.js routes a request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./server/startup.ts")).loadConfigOrExit();
  const { env } = await import("./server/env.ts");
  const { hostingWarnings } = await import("./server/hosting-policy.ts");
  for (const warning of hostingWarnings(env)) console.warn(`[patchbay] warning: ${warning}`);
  const { getSessionManager, installShutdown } = await import("./server/session/app-runtime.ts");
  const manager = await getSessionManager();
  await installShutdown(() => manager.stop());
  const { API_LANE_KEY, serveApiLane } = await import("./server/api/http-lane.ts");
  (globalThis as Record<string, unknown>)[API_LANE_KEY] = serveApiLane;
}
