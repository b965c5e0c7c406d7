// Who is signed in. Pages call requireUser() (redirects to sign-in); the API layer calls
// getSessionUser() and answers 401 itself. Both read the database session through Auth.js.
import { redirect } from "next/navigation";

import { auth } from "./config.ts";

export type SessionUser = { id: string; name: string | null; email: string | null; image: string | null };

export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null };
}

/** The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireUser(returnTo = "/"): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}
