// Who is signed in, for the API (session.ts, getRequestUser): the user of the request's Auth.js
// database-session cookie, read with one SQL statement instead of a full Auth.js `auth()` round (which builds a request, a CSRF
// token and a response around the same lookup: about 2 ms of CPU a call, paid by every tRPC query,
// mutation and subscription). The answer is the one Auth.js would give:
// - no session cookie, or no session row for it, or an expired one: null (signed out);
// - a session whose expiry Auth.js would roll forward now (it does so once per UPDATE_AGE) is handed
//   to `auth()` itself, which extends it, so a user who only ever calls the API stays signed in;
// - the database unreachable: `unavailable:database` (503), never a 401 that would lose the user's place.
// Nothing is cached: a signed-out or deleted session is refused on the very next request, on every instance.
import type { SqlPool } from "../db/client.ts";
import { isDatabaseUnavailable } from "../database-unavailable.ts";
import { AppError } from "../errors.ts";
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from "./session-ages.ts";
import { runStatement, statement } from "../db/statements.ts";

export type SessionUser = { id: string; name: string | null; email: string | null; image: string | null };

/** Auth.js's session cookie, plain and on HTTPS (`__Secure-`). */
export const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

const SESSION_SQL = statement(
  "session_user",
  `SELECT s.expires, u.id, u.name, u.email, u.image
  FROM "Session" s JOIN "User" u ON u.id = s."userId" WHERE s."sessionToken" = $1`,
);

type SessionRow = { expires: Date; id: string; name: string | null; email: string | null; image: string | null };

/** The value of the first session cookie in a Cookie header, if any. */
export function sessionTokenOf(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0) continue;
    const name = pair.slice(0, separator).trim();
    if (!SESSION_COOKIES.includes(name)) continue;
    const value = pair.slice(separator + 1).trim();
    if (value) return decodeURIComponent(value);
  }
  return null;
}

/** Whether Auth.js would extend this session's expiry on the next read (its `updateAge` has passed). */
export function isRollDue(expires: Date, now: number): boolean {
  const lastUpdated = expires.getTime() - SESSION_MAX_AGE_SECONDS * 1000;
  return now - lastUpdated >= SESSION_UPDATE_AGE_SECONDS * 1000;
}

/** The user of session `token` on `pool`; `rollForward` answers for a session due to be extended. */
export async function readSessionUser(
  pool: SqlPool,
  token: string,
  rollForward: () => Promise<SessionUser | null>,
  now = Date.now(),
): Promise<SessionUser | null> {
  let row: SessionRow | undefined;
  try {
    row = (await runStatement<SessionRow>(pool, SESSION_SQL, [token])).rows[0];
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new AppError("unavailable:database", undefined, { cause: error });
    throw error;
  }
  if (!row || row.expires.getTime() <= now) return null;
  if (isRollDue(row.expires, now)) return rollForward(); // Auth.js extends it (and answers the same user)
  return { id: row.id, name: row.name, email: row.email, image: row.image };
}
