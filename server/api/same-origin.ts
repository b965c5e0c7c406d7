// Cross-site request forgery guard for route handlers that change state (tRPC mutations). A cookie
// alone does not prove intent: SameSite=Lax still lets any other port on localhost (same site) post,
// and a plain HTML form can post without a CORS preflight. So a state-changing request must
//  - come from this site's own pages: `Sec-Fetch-Site: same-origin` when the browser sends it, else
//    an `Origin` equal to the origin the request came to or the configured public URL (AUTH_URL);
//    a request with neither header is refused too (every current browser sends one of them);
//  - carry `Content-Type: application/json`, which a form cannot send and which forces a preflight
//    on any cross-origin fetch.
// Safe methods (GET, HEAD, OPTIONS) pass: they change nothing (tRPC runs mutations on POST only).
import { AppError } from "../errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Null when `request` may change state; else the 403 / 415 to answer with, in words. */
export function crossSiteRefusal(request: Request, publicUrl?: string): AppError | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const fetchSite = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const allowed = [new URL(request.url).origin, originOf(publicUrl)].filter(Boolean);
  const isSameOrigin = fetchSite !== null ? fetchSite === "same-origin" : origin !== null && allowed.includes(origin);
  if (!isSameOrigin) {
    return new AppError(
      "forbidden:api",
      "This request came from another site and was refused: Patchbay only accepts changes from its own pages.",
    );
  }
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== "application/json") {
    return new AppError("forbidden:api", "Requests that change something must be sent as application/json.");
  }
  return null;
}
