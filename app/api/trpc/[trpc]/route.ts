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

/**
 * tRPC's answers here are whole JSON documents (the client batches, it does not stream), so each
 * goes out with its Content-Length: Next.js then leaves the small ones (most answers) uncompressed,
 * where gzip would cost more CPU than the bytes it saves, and still compresses large ones.
 */
async function withLength(response: Response): Promise<Response> {
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set("Content-Length", String(body.byteLength));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function handler(req: Request): Promise<Response> {
  return withApiHeaders(await withLength(await handle(req)));
}

export { handler as GET, handler as POST };
