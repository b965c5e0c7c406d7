// The API lane of Patchbay's own HTTP server (server/cli/serve.ts, what `npm start` runs): the tRPC
// API and the chats' event streams answered straight from Node's request and response, before
// Next.js routes the request. These are every chat's hot path; through Next.js each request paid its
// routing (about 3 ms before the handler ran) and each SSE write its web-stream response pipeline.
// The answers are the route handlers' own: the same functions (trpc-http.ts, chat-events.ts) build
// them from a Web Request, so app/api/trpc and app/api/chats/[sessionId]/events (`next dev`, a plain
// `next start`) and this lane cannot differ in what they check or say. What the lane adds:
// - It takes GET and POST under /api/trpc/ and GET /api/chats/<id>/events; anything else (another
//   method, a malformed path) is left to Next.js, which answers as it always did.
// - The signed-in user is read here, before the request is taken (one statement, request-user.ts);
//   a session Auth.js must roll forward now (once a day per session) is left to Next.js, where
//   Auth.js has its request context to extend it and set the cookie; a failed read is left to the
//   handler, which answers 503 in words.
// - A body is read up to MAX_BODY_BYTES; a larger one is 413 in words, declared or not.
// - The request's URL is the one Next.js gives a route handler (the server's own hostname, a
//   loopback one as `localhost`, and port; https when the socket is TLS or X-Forwarded-Proto says
//   so), so same-origin checks and the origin OAuth redirects come back to agree.
// - tRPC answers of 1 KB or more are gzipped when the client accepts it (as Next.js's compression
//   does). An event stream's frames are written straight to the socket (server/session/
//   event-stream.ts's pump, no web stream between), the next batch taken once the socket has
//   drained; the stream is released when the client goes away.
// It runs inside the Next.js bundle (instrumentation.ts installs it), so it shares the bundle's
// modules, the database pool, the session manager and the event log, with the pages and routes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

import { setKnownRequestUser } from "../auth/session.ts";
import { readSessionUser, type SessionUser, sessionTokenOf } from "../auth/request-user.ts";
import { urlHost } from "../core/url-host.ts";
import { getPool } from "../db/client.ts";
import { AppError, toResponse } from "../errors.ts";
import type { FrameSink } from "../session/event-stream.ts";
import { MAX_BODY_BYTES } from "./body-limit.ts";
import { openChatEvents } from "./chat-events.ts";
import { answerTrpcWhole, COMPRESS_MIN_BYTES, mayCompress, type WholeAnswer } from "./trpc-http.ts";

/** Where the server listens: what a route handler's `request.url` is built from. */
export type LaneAddress = { hostname: string; port: number };

/** Answers `req` and resolves true, or resolves false without touching it (Next.js answers). */
export type ApiLane = (req: IncomingMessage, res: ServerResponse, address: LaneAddress) => Promise<boolean>;

/** Where instrumentation.ts leaves the lane for the server (the bundle and serve.ts share no modules). */
export const API_LANE_KEY = "patchbayApiLane";

const EVENTS_PATH = /^\/api\/chats\/([^/]+)\/events$/;
const TRPC_PREFIX = "/api/trpc/";
const gzipAsync = promisify(gzip);

type Route = { kind: "trpc" } | { kind: "events"; sessionId: string };

function routeOf(req: IncomingMessage): Route | null {
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const pathname = query < 0 ? url : url.slice(0, query);
  if (pathname.startsWith(TRPC_PREFIX) && (req.method === "GET" || req.method === "POST")) {
    return pathname.length > TRPC_PREFIX.length ? { kind: "trpc" } : null;
  }
  const events = req.method === "GET" ? EVENTS_PATH.exec(pathname) : null;
  if (!events) return null;
  try {
    return { kind: "events", sessionId: decodeURIComponent(events[1]!) };
  } catch {
    return null; // a malformed escape: Next.js answers it
  }
}

/** Loopback names Next.js's request URL writes as `localhost` (its NextURL does). */
const LOOPBACK_HOSTNAME = /^(?:127(?:\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)){3}|\[::1\]|::1|localhost)$/;

/** The host of a route handler's request URL: loopback as `localhost`, an IPv6 address in brackets. */
function formatHost(hostname: string): string {
  if (LOOPBACK_HOSTNAME.test(hostname)) return "localhost";
  return urlHost(hostname);
}

function requestUrl(req: IncomingMessage, address: LaneAddress): string {
  const forwarded = req.headers["x-forwarded-proto"];
  const isTls = "encrypted" in req.socket || (typeof forwarded === "string" && forwarded.includes("https"));
  return `${isTls ? "https" : "http"}://${formatHost(address.hostname || "localhost")}:${address.port}${req.url ?? "/"}`;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (!raw[i]!.startsWith(":")) headers.append(raw[i]!, raw[i + 1]!);
  }
  return headers;
}

/** Raised in place of rolling a session forward: the request is Next.js's. */
class RollDue extends Error {}
const ROLL_DUE = new RollDue("the session is due to be rolled forward by Auth.js");

/** The signed-in user, null when signed out, "roll" when Auth.js must extend the session, undefined when unread. */
async function userOf(req: IncomingMessage): Promise<SessionUser | null | "roll" | undefined> {
  const token = sessionTokenOf(req.headers.cookie ?? null);
  if (!token) return null;
  try {
    return await readSessionUser(await getPool(), token, () => Promise.reject(ROLL_DUE));
  } catch (error) {
    return error === ROLL_DUE ? "roll" : undefined; // unreadable: the handler's own read answers for it
  }
}

/** The body, or null when it passes MAX_BODY_BYTES (the rest is left unread). */
async function bodyOf(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function writeHead(res: ServerResponse, answer: WholeAnswer, extra: Record<string, string | number> = {}): void {
  const headers: Record<string, string | string[] | number> = {};
  for (const [name, value] of answer.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(answer.status, { ...headers, ...extra });
}

/** A Response (a refusal, an error) as a whole answer; compressible unless it says no-transform. */
async function wholeOf(response: Response): Promise<WholeAnswer> {
  const body = new Uint8Array(await response.arrayBuffer());
  const { status, statusText, headers } = response;
  return { status, statusText, headers, body, mayCompress: mayCompress(headers) };
}

function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/i.test(req.headers["accept-encoding"] ?? "");
}

/** A whole answer (tRPC, a refusal): gzipped from COMPRESS_MIN_BYTES on when it may be. */
async function sendWhole(req: IncomingMessage, res: ServerResponse, answer: WholeAnswer): Promise<void> {
  const { body } = answer;
  if (answer.mayCompress && body.byteLength >= COMPRESS_MIN_BYTES && acceptsGzip(req)) {
    const compressed = await gzipAsync(body);
    writeHead(res, answer, {
      "content-encoding": "gzip",
      vary: "Accept-Encoding",
      "content-length": compressed.length,
    });
    res.end(compressed);
    return;
  }
  writeHead(res, answer, { "content-length": body.byteLength });
  res.end(body);
}

/** A Node response as an event stream's sink: a write reports backpressure, `drained` waits for the socket. */
function responseSink(res: ServerResponse): FrameSink {
  return {
    write: (frame) => (res.destroyed || res.writableEnded ? true : res.write(frame)),
    drained: () =>
      new Promise<void>((resolve) => {
        if (res.destroyed || !res.writableNeedDrain) return resolve();
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      }),
    end: () => {
      if (!res.destroyed && !res.writableEnded) res.end();
    },
  };
}

/** A chat's event stream: its refusal as a whole answer, or its frames written straight to the socket. */
async function sendEvents(
  req: IncomingMessage,
  res: ServerResponse,
  request: Request,
  sessionId: string,
): Promise<void> {
  const opening = await openChatEvents(request, sessionId);
  if ("refusal" in opening) return sendWhole(req, res, await wholeOf(opening.refusal));
  res.writeHead(200, opening.headers);
  await opening.run(request.signal, responseSink(res));
}

/** The lane: takes the API's hot paths, leaves every other request to Next.js. */
export const serveApiLane: ApiLane = async (req, res, address) => {
  const route = routeOf(req);
  if (!route) return false;
  const user = await userOf(req);
  if (user === "roll") return false;
  // As Next.js does: a close before the answer finished is the client going away.
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  try {
    // A declared oversize body is not read: the handler answers 413 naming the declared size.
    const isDeclaredTooLarge = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES;
    const body = req.method === "POST" && !isDeclaredTooLarge ? await bodyOf(req) : undefined;
    if (body === null) {
      throw new AppError("too_large:api", `The request is too large (${MAX_BODY_BYTES / 1_048_576} MiB at most).`);
    }
    const request = new Request(requestUrl(req, address), {
      method: req.method,
      headers: headersOf(req),
      body: (body ?? null) as Uint8Array<ArrayBuffer> | null,
      signal: aborted.signal,
    });
    if (user !== undefined) setKnownRequestUser(request, user);
    if (route.kind === "events") await sendEvents(req, res, request, route.sessionId);
    else await sendWhole(req, res, await answerTrpcWhole(request));
  } catch (error) {
    if (res.headersSent) res.destroy();
    else await sendWhole(req, res, await wholeOf(toResponse(error, "api lane")));
  }
  return true;
};
