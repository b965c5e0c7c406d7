// Patchbay's HTTP server, what `npm start` runs (start.ts; one process or each cluster worker):
// `node server/cli/serve.ts --hostname H --port P`, the production build served as `next start`
// serves it (Next.js's own request handler, from its custom-server entry), with one difference:
// the API's hot paths, the tRPC API and the chats' event streams, are answered by the API lane
// (server/api/http-lane.ts) before Next.js routes the request. The lane lives in the Next.js bundle
// (instrumentation.ts leaves it on globalThis), so it shares the bundle's modules and state.
// - The environment is `next start`'s: NODE_ENV production, NEXT_RUNTIME nodejs, PORT and Next's
//   private origin; Next's custom-server entry also sets TURBOPACK, which `next start` does not, so
//   it is put back.
// - The socket is opened only after Next.js and instrumentation.ts are ready (the app's start-up:
//   configuration, migrations, the session manager), so the lane is there for the first request.
// - Signals: the app's own shutdown (server/mcp/shutdown.ts) ends the process with 128 + the
//   signal's number; this server stops accepting connections at the first signal, and exits on its
//   own after FORCE_EXIT_MS if nothing else did.
import http from "node:http";
import path from "node:path";
import { constants } from "node:os";
import { parseArgs } from "node:util";

import type { ApiLane, LaneAddress } from "../api/http-lane.ts";
import { urlHost } from "../core/url-host.ts";

const API_LANE_KEY = "patchbayApiLane"; // http-lane.ts's API_LANE_KEY (that module runs in the bundle, not here)
const FORCE_EXIT_MS = 40_000;
const root = path.resolve(import.meta.dirname, "../..");

const { values } = parseArgs({
  options: { hostname: { type: "string", short: "H" }, port: { type: "string", short: "p" } },
});
const address: LaneAddress = { hostname: values.hostname ?? "localhost", port: Number(values.port ?? 3000) };
if (!Number.isInteger(address.port) || address.port <= 0 || address.port > 65_535) {
  console.error(`[patchbay] serve: --port must be a port number (1–65535), not "${values.port}"`);
  process.exit(1);
}

/** The address Next.js's `next start` records for itself (start-server.ts): 0.0.0.0 shows as localhost. */
function appUrl({ hostname, port }: LaneAddress): string {
  const shown = hostname === "0.0.0.0" ? "localhost" : hostname === "::" ? "[::1]" : hostname;
  return `http://${urlHost(shown)}:${port}`;
}

process.title = "patchbay-server"; // what `ps` shows (Next.js's own server calls itself next-server)
const processEnv = process.env as Record<string, string | undefined>;
processEnv.NODE_ENV ||= "production";
processEnv.NEXT_RUNTIME = "nodejs";
processEnv.NEXT_PRIVATE_START_TIME ??= String(Date.now());
processEnv.PORT = String(address.port);
processEnv.__NEXT_PRIVATE_ORIGIN = appUrl(address);
const turbopackBefore = processEnv.TURBOPACK;

const { default: next } = await import("next");
const server = http.createServer();
// Given the server, Next.js attaches its own upgrade (WebSocket) handler to it.
const app = next({ dev: false, dir: root, hostname: address.hostname, port: address.port, httpServer: server });
if (turbopackBefore === undefined) delete processEnv.TURBOPACK;
try {
  await app.prepare();
} catch (error) {
  console.error("[patchbay] serve: Next.js could not start", error);
  process.exit(1);
}
const nextHandler = app.getRequestHandler();
// A production Next.js server starts instrumentation.ts without waiting for it (requests wait for
// it instead); here it is awaited before the socket opens (the app's start-up, and the lane it
// installs). Next.js's own once-only entry is used, so it cannot run a second time.
const { ensureInstrumentationRegistered } =
  (await import("next/dist/server/lib/router-utils/instrumentation-globals.external.js")) as {
    ensureInstrumentationRegistered: (dir: string, distDir: string) => Promise<void>;
  };
await ensureInstrumentationRegistered(root, ".next");
const laneOf = () => (globalThis as Record<string, unknown>)[API_LANE_KEY] as ApiLane | undefined;
if (!laneOf())
  console.warn("[patchbay] serve: the API lane is not installed (instrumentation.ts); Next.js serves the API");

server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
  const lane = laneOf();
  const answered = lane ? lane(req, res, address) : Promise.resolve(false);
  answered
    .then((isAnswered) => (isAnswered ? undefined : nextHandler(req, res)))
    .catch((error: unknown) => {
      console.error(`[patchbay] serve: failed to answer ${req.method} ${req.url}`, error);
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error");
    });
});
server.on("error", (error) => {
  console.error("[patchbay] serve: the server failed", error);
  process.exit(1);
});

let isStopping = false;
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (isStopping) return;
    isStopping = true;
    server.close();
    server.closeIdleConnections();
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), FORCE_EXIT_MS).unref();
  });
}

server.listen(address.port, address.hostname, () => console.log(" ✓ Ready"));
