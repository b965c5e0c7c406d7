// Builds the tRPC context for one request: the database and the signed-in user (or null).
import { getSessionUser } from "../auth/session.ts";
import { getDb } from "../db.ts";
import type { Context } from "./trpc.ts";

export async function createTRPCContext(): Promise<Context> {
  const [db, user] = await Promise.all([getDb(), getSessionUser()]);
  return { db, user };
}
