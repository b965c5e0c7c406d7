// tRPC over HTTP (fetch adapter): every query and mutation of root.ts, answered from a Web Request.
// Served by app/api/trpc/[trpc]/route.ts (under `next dev` and plain `next start`) and by the API
// lane of Patchbay's own server (http-lane.ts, `npm start`); both give the same answer.
// - A request that changes state must come from Patchbay's own pages as JSON (same-origin.ts): 403 else.
// - A body larger than body-limit.ts allows is refused with 413 before it is read.
// - Every answer carries the API's fixed security headers (no page, so no nonce).
// - tRPC's answers are whole JSON documents (the client batches, it does not stream). One smaller
//   than COMPRESS_MIN_BYTES says `Cache-Control: no-transform`: compressing it (Next.js gzips every
//   route answer whose length it does not know) would cost a zlib stream per request and add bytes.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { env } from "../env.ts";
import { toResponse } from "../errors.ts";
import { apiSecurityHeaders } from "../security-headers.ts";
import { assertBodyWithinLimit } from "./body-limit.ts";
import { createTRPCContext } from "./context.ts";
import { appRouter } from "./root.ts";
import { crossSiteRefusal } from "./same-origin.ts";

/** Answers smaller than this go out uncompressed (the threshold Next.js's own gzip uses). */
export const COMPRESS_MIN_BYTES = 1024;

const API_HEADERS = Object.entries(apiSecurityHeaders());

async function answer(req: Request): Promise<Response> {
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
 * A whole answer: status, headers and body, and whether it may be compressed on the way out (not
 * when it says `no-transform`). The lane (http-lane.ts) writes it to the socket as it is.
 */
export type WholeAnswer = {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
  mayCompress: boolean;
};

/** tRPC's answer as one buffer with its headers: the API's security headers, `no-transform` when small. */
export async function answerTrpcWhole(req: Request): Promise<WholeAnswer> {
  const response = await answer(req);
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  for (const [name, value] of API_HEADERS) headers.set(name, value);
  if (body.byteLength < COMPRESS_MIN_BYTES) {
    const cacheControl = headers.get("Cache-Control");
    headers.set("Cache-Control", cacheControl ? `${cacheControl}, no-transform` : "no-transform");
  }
  return { status: response.status, statusText: response.statusText, headers, body, mayCompress: mayCompress(headers) };
}

/** Whether an answer with these headers may be compressed on the way out: not when it says `no-transform`. */
export function mayCompress(headers: Headers): boolean {
  return !/no-transform/.test(headers.get("cache-control") ?? "");
}

/** The route handler's answer (app/api/trpc): answerTrpcWhole as a Response. */
export async function answerTrpc(req: Request): Promise<Response> {
  const { status, statusText, headers, body } = await answerTrpcWhole(req);
  return new Response(body, { status, statusText, headers });
}
