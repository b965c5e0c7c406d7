// tRPC over HTTP (fetch adapter): every query and mutation of server/api/root.ts.
// A body larger than server/api/body-limit.ts allows is refused with 413 before it is read.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { assertBodyWithinLimit } from "@/server/api/body-limit.ts";
import { createTRPCContext } from "@/server/api/context.ts";
import { appRouter } from "@/server/api/root.ts";
import { toResponse } from "@/server/errors.ts";

function handler(req: Request): Promise<Response> {
  try {
    assertBodyWithinLimit(req);
  } catch (error) {
    return Promise.resolve(toResponse(error, "trpc body limit"));
  }
  return fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: createTRPCContext });
}

export { handler as GET, handler as POST };
