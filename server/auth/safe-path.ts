// The one rule for every redirect target that comes from a request (a sign-in page's callbackUrl,
// a form's return address, Auth.js's redirect callback): it must be a path on this site. Browsers
// read `//host`, `/\host` and such forms with tabs or newlines in them as another site, so the value
// is parsed the way a browser parses it (WHATWG URL) against a placeholder origin and kept only when
// it stays on that origin and its normalised path cannot be read as a host either. Anything else
// becomes the fallback. The answer is the normalised path + query + fragment, never the raw input.
const PLACEHOLDER_ORIGIN = "http://patchbay.invalid";

/** `value` as a same-site path ("/s/abc?x=1"), or `fallback` when it is anything else. */
export function safeReturnPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  // Control characters and backslashes are never part of a path Patchbay makes.
  if ([...value].some((char) => char === "\\" || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return fallback;
  }
  let parsed: URL;
  try {
    parsed = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (parsed.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // "/.//evil" normalises to "//evil": a path a browser would take for a host.
  if (path.startsWith("//")) return fallback;
  return path;
}

/**
 * Auth.js's redirect callback on this rule: a path or an absolute URL on `baseUrl` comes back as an
 * absolute URL on `baseUrl`; anything else goes to the base URL's root.
 */
export function safeRedirectUrl(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let candidate: string = url;
  if (!url.startsWith("/")) {
    try {
      const parsed = new URL(url);
      candidate = parsed.origin === base.origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : "/";
    } catch {
      candidate = "/";
    }
  }
  return new URL(safeReturnPath(candidate), base.origin).toString();
}
