// The security headers of every Patchbay response (set by proxy.ts; the API's own by app/api/trpc). The page runs only its own
// scripts: Next.js's inline bootstrap scripts carry the per-request nonce (Next.js reads it from
// the request's Content-Security-Policy header), and 'strict-dynamic' lets those load the bundles.
// Images come only from the app itself or data: URLs, so a remote image named in model output or a
// tool result (the classic way to leak chat data through a URL) is never fetched; the chat shows
// such images as links (components/chat/markdown.tsx). Styles allow inline attributes, which the UI
// primitives set (CSS cannot reach the network past img-src / font-src). No framing, no referrer,
// no MIME sniffing. Development adds 'unsafe-eval', which React's dev build needs.
export type SecurityHeaderOptions = { nonce: string; isDevelopment: boolean };

export function contentSecurityPolicy({ nonce, isDevelopment }: SecurityHeaderOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDevelopment ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
  ];
  return directives.join("; ");
}

/** Response headers, CSP included. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
}

/**
 * The headers of API answers (JSON and event streams, never a page): nothing may load or frame them,
 * so no nonce is needed and the proxy (proxy.ts) does not run for them (app/api/trpc sets these).
 */
export function apiSecurityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

/** A fresh nonce: 16 random bytes, base64. */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
