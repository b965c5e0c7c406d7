// Builds the tRPC context for one request: the database, the signed-in user (or null) and the
// origin the request came to. Over HTTP the user comes from the request's session cookie in one
// query (request-user.ts); without a request (a page's prefetched queries) the page's own user,
// read once for the whole page (getPageUser).
import { getPageUser, getRequestUser } from "../auth/session.ts";
import { getDb } from "../db/client.ts";
import type { Context } from "./trpc.ts";

export async function createTRPCContext(options?: { req: Request }): Promise<Context> {
  const [db, user] = await Promise.all([getDb(), options ? getRequestUser(options.req) : getPageUser()]);
  return { db, user, requestOrigin: options ? new URL(options.req.url).origin : null };
}
