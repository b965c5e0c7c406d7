// tRPC over HTTP (fetch adapter): every query and mutation of server/api/root.ts. A request that
// changes state must come from Patchbay's own pages as JSON (server/api/same-origin.ts): 403 else.
// A body larger than server/api/body-limit.ts allows is refused with 413 before it is read. The
// proxy (proxy.ts) skips this route, which is the hot path of every chat: its answers get the API's
// fixed security headers here instead (no page, so no nonce).
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { assertBodyWithinLimit } from "@/server/api/body-limit.ts";
import { createTRPCContext } from "@/server/api/context.ts";
import { appRouter } from "@/server/api/root.ts";
import { crossSiteRefusal } from "@/server/api/same-origin.ts";
import { env } from "@/server/env.ts";
import { toResponse } from "@/server/errors.ts";
import { apiSecurityHeaders } from "@/server/security-headers.ts";

const API_HEADERS = Object.entries(apiSecurityHeaders());

function withApiHeaders(response: Response): Response {
  for (const [name, value] of API_HEADERS) response.headers.set(name, value);
  return response;
}

async function handle(req: Request): Promise<Response> {
  const refusal = crossSiteRefusal(req, env.AUTH_URL);
  if (refusal) return toResponse(refusal);
  try {
    assertBodyWithinLimit(req);
  } catch (error) {
    return toResponse(error, "trpc body limit");
  }
  return fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: createTRPCContext });
}

/** Answers smaller than this go out uncompressed (the threshold Next.js's own gzip uses). */
const COMPRESS_MIN_BYTES = 1024;

/**
 * tRPC's answers here are whole JSON documents (the client batches, it does not stream). Next.js
 * gzips every route answer whose length it does not know, and it drops the Content-Length a route
 * sets, so a 70-byte answer was gzipped too: a zlib stream set up and torn down per request, and
 * more bytes on the wire than it saved. A small answer therefore goes out with
 * `Cache-Control: no-transform`, which Next.js's compression honours; large ones (a chat's history,
 * its tools) are still compressed.
 */
async function uncompressedWhenSmall(response: Response): Promise<Response> {
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  if (body.byteLength < COMPRESS_MIN_BYTES) {
    const cacheControl = headers.get("Cache-Control");
    headers.set("Cache-Control", cacheControl ? `${cacheControl}, no-transform` : "no-transform");
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function handler(req: Request): Promise<Response> {
  return withApiHeaders(await uncompressedWhenSmall(await handle(req)));
}

export { handler as GET, handler as POST };
