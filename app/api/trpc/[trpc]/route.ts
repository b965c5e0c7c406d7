// tRPC over HTTP (fetch adapter): every query and mutation of server/api/root.ts. A request that
// changes state must come from Patchbay's own pages as JSON (server/api/same-origin.ts): 403 else.
// A body larger than server/api/body-limit.ts allows is refused with 413 before it is read.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { assertBodyWithinLimit } from "@/server/api/body-limit.ts";
import { createTRPCContext } from "@/server/api/context.ts";
import { appRouter } from "@/server/api/root.ts";
import { crossSiteRefusal } from "@/server/api/same-origin.ts";
import { env } from "@/server/env.ts";
import { toResponse } from "@/server/errors.ts";

function handler(req: Request): Promise<Response> {
  const refusal = crossSiteRefusal(req, env.AUTH_URL);
  if (refusal) return Promise.resolve(toResponse(refusal));
  try {
    assertBodyWithinLimit(req);
  } catch (error) {
    return Promise.resolve(toResponse(error, "trpc body limit"));
  }
  return fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: createTRPCContext });
}

export { handler as GET, handler as POST };
