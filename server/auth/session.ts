// Who is signed in. Pages call requireUser() (redirects to sign-in); the API layer calls
// getRequestUser() and answers 401 itself. Both read the database session with one query on the
// session cookie (request-user.ts), a page once per request however many of its parts ask (the
// layout, the page, its metadata and its prefetched queries); Auth.js's own read (getSessionUser)
// only when the session is due to be rolled forward, and where no cookie jar is at hand.
// Auth.js answers "no session" when its database read fails, so a request that carries a session
// cookie but finds no session checks the database: unreachable, it is a 503 "database unavailable"
// (unavailable:database), never a 401 or a redirect to sign-in that would lose the user's place.
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";

import { getPool } from "../db/client.ts";
import { readSessionUser, SESSION_COOKIES, type SessionUser, sessionTokenOf } from "./request-user.ts";
import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { AppError } from "../errors.ts";
import { auth } from "./config.ts";

export type { SessionUser } from "./request-user.ts";

/** Throws unavailable:database when the request has a session cookie and the database cannot be reached. */
async function assertDatabaseReachable(): Promise<void> {
  const jar = await cookies();
  if (!SESSION_COOKIES.some((name) => jar.has(name))) return;
  try {
    await (await getPool()).query("SELECT 1");
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new AppError("unavailable:database", undefined, { cause: error });
    throw error;
  }
}

export async function getSessionUser(): Promise<SessionUser | null> {
  let session;
  try {
    session = await auth();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new AppError("unavailable:database", undefined, { cause: error });
    throw error;
  }
  const user = session?.user;
  if (!user?.id) {
    await assertDatabaseReachable();
    return null;
  }
  return { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null };
}

/** The user of the session cookie in a Cookie header: one query (request-user.ts), Auth.js only to roll it forward. */
async function userOfCookies(cookieHeader: string | null): Promise<SessionUser | null> {
  const token = sessionTokenOf(cookieHeader);
  return token ? readSessionUser(await getPool(), token, getSessionUser) : null;
}

/**
 * Users already read for a request by the server's API lane (server/api/http-lane.ts), which reads
 * the session before it takes a request (one due to be rolled forward goes to Next.js, whose
 * request context Auth.js needs); the request's own read then makes no second query.
 */
const knownUsers = new WeakMap<Request, SessionUser | null>();

/** Records the user already read for `request` (null: signed out). */
export function setKnownRequestUser(request: Request, user: SessionUser | null): void {
  knownUsers.set(request, user);
}

/** The API's read of the signed-in user: the request's own cookie. */
export async function getRequestUser(request: Request): Promise<SessionUser | null> {
  const known = knownUsers.get(request);
  if (known !== undefined) return known;
  return userOfCookies(request.headers.get("cookie"));
}

/** The signed-in user of the page (or server action) being rendered: read once per request (React's cache). */
export const getPageUser = cache(async (): Promise<SessionUser | null> => userOfCookies((await cookies()).toString()));

/** The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireUser(returnTo = "/"): Promise<SessionUser> {
  const user = await getPageUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}
