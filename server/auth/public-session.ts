// What a session looks like outside the server. Auth.js's database strategy hands the session
// callback the stored row (sessionToken, userId, expires) plus the user; the token must never reach
// page script (the cookie is HttpOnly for a reason), so the callback keeps only the user's own
// fields, and `GET /api/auth/session` (readable by any script on the page) carries only what a page
// shows: name, e-mail and picture. The user id stays on the server (auth() reads it there).
export type SessionPayload = {
  user: { id: string; name: string | null; email: string | null; image: string | null };
  expires: string;
};

export type PublicSession = {
  user: { name: string | null; email: string | null; image: string | null };
  expires: string;
};

type UserLike = { id?: string | null; name?: string | null; email?: string | null; image?: string | null };

/** The session callback's answer: the user's fields and the expiry, nothing of the stored row. */
export function toSessionPayload(expires: Date | string, user: UserLike): SessionPayload {
  return {
    user: { id: user.id ?? "", name: user.name ?? null, email: user.email ?? null, image: user.image ?? null },
    expires: expires instanceof Date ? expires.toISOString() : expires,
  };
}

/** The body `/api/auth/session` may carry: null when signed out, else name / e-mail / picture / expiry. */
export function toPublicSession(body: unknown): PublicSession | null {
  if (!body || typeof body !== "object" || !("user" in body) || !body.user || typeof body.user !== "object") {
    return null;
  }
  const user = body.user as UserLike;
  const expires = "expires" in body && typeof body.expires === "string" ? body.expires : "";
  return { user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires };
}

/** Rewrites an Auth.js session response to the public shape; other responses pass unchanged. */
export async function filterSessionResponse(request: Request, response: Response): Promise<Response> {
  if (!new URL(request.url).pathname.endsWith("/session")) return response;
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return response;
  const body: unknown = await response.json().catch(() => null);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(toPublicSession(body)), { status: response.status, headers });
}
