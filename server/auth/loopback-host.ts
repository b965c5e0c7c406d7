// The address a browser really used on this machine. Next.js rewrites a loopback host in a route
// handler's request URL (127.x.x.x, [::1]) to "localhost" (its NextURL does), while Auth.js started the
// sign-in on the Host header's address: the OAuth callback then exchanged its code for
// http://localhost:PORT/... although the issuer had issued it for http://127.0.0.1:PORT/..., and a
// sign-in through 127.0.0.1 ended in "Sign-in is misconfigured". `withBrowserLoopbackHost` undoes
// that one rewrite and nothing else: only a loopback Host on the same port replaces a "localhost" URL.
const LOOPBACK_HOSTNAME = /^(?:127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/;

/** True for 127.x.x.x, [::1] and localhost. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAME.test(hostname);
}

/** The URL the browser asked for when Next.js renamed its loopback host, else null (nothing to undo). */
export function browserLoopbackUrl(url: string, hostHeader: string | null): URL | null {
  if (!hostHeader) return null;
  const seen = new URL(url);
  let browser: URL;
  try {
    browser = new URL(`${seen.protocol}//${hostHeader}`);
  } catch {
    return null;
  }
  if (seen.hostname !== "localhost" || browser.hostname === "localhost") return null;
  if (!isLoopbackHostname(browser.hostname) || browser.port !== seen.port) return null;
  seen.hostname = browser.hostname;
  return seen;
}

/** The request with the browser's loopback host in its URL (same method, headers and body). */
export function withBrowserLoopbackHost<R extends Request>(request: R): R {
  const url = browserLoopbackUrl(request.url, request.headers.get("host"));
  if (!url) return request;
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers };
  if (request.body) Object.assign(init, { body: request.body, duplex: "half" });
  // A plain Request: a NextRequest would rename the host again. Auth.js reads only url, method,
  // headers and body from it (with no AUTH_URL set, which is the only case this changes anything).
  return new Request(url, init) as R;
}

/**
 * With AUTH_URL naming a loopback address, the origin a browser on another loopback name must move
 * to before signing in (the sign-in's cookies are set on the name it uses, and the issuer returns it
 * to AUTH_URL's); null when it is already there, or AUTH_URL is unset or not loopback.
 */
export function canonicalLoopbackOrigin(authUrl: string | undefined, hostHeader: string | null): string | null {
  if (!authUrl || !hostHeader) return null;
  const canonical = new URL(authUrl);
  if (!isLoopbackHostname(canonical.hostname) || canonical.host === hostHeader) return null;
  let browser: URL;
  try {
    browser = new URL(`${canonical.protocol}//${hostHeader}`);
  } catch {
    return null;
  }
  return isLoopbackHostname(browser.hostname) && browser.port === canonical.port ? canonical.origin : null;
}
