// tRPC over HTTP (fetch adapter): every query and mutation of server/api/root.ts.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { createTRPCContext } from "@/server/api/context.ts";
import { appRouter } from "@/server/api/root.ts";

function handler(req: Request): Promise<Response> {
  return fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: createTRPCContext });
}

export { handler as GET, handler as POST };
