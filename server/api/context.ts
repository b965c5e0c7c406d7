// Builds the tRPC context for one request: the database, the signed-in user (or null) and the
// origin the request came to.
import { getSessionUser } from "../auth/session.ts";
import { getDb } from "../db/client.ts";
import type { Context } from "./trpc.ts";

export async function createTRPCContext(options?: { req: Request }): Promise<Context> {
  const [db, user] = await Promise.all([getDb(), getSessionUser()]);
  return { db, user, requestOrigin: options ? new URL(options.req.url).origin : null };
}
