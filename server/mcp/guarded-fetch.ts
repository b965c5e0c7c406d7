// The fetch an OAuth-capable connection uses. MCP authorization makes Patchbay's server fetch URLs
// the remote server names (its protected-resource metadata points at an authorization server, whose
// metadata names token and registration endpoints), so every request to another origin than the
// connector's own is checked with the same SSRF rule as connector URLs, and is not allowed to follow
// redirects (a redirect would skip the check). Requests to the connector's origin were checked at
// connect and behave as before.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

export function guardedFetch(
  checkUrl: (url: string) => Promise<void>,
  trustedOrigin: string,
  fetchFn: FetchLike = fetch,
): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    if (url.origin === trustedOrigin) return fetchFn(input, init);
    await checkUrl(url.toString());
    return fetchFn(input, { ...init, redirect: "manual" });
  };
}
