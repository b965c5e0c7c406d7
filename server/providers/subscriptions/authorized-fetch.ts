// The `fetch` a subscription account's AI SDK provider uses. Before each request it takes fresh
// tokens (refreshed when they expire within a minute), lets the vendor's shaper rewrite the request
// (URL, headers, body) for the subscription endpoint, and sends it. On a 401 it refreshes once —
// under the account's row lock, so concurrent requests spend the refresh token once — and retries
// once; a second 401 is returned to the SDK as is. A permanently failed refresh surfaces as the
// reconnect error thrown by the token source.
import { plainFetch } from "../../core/plain-fetch.ts";
import type { StoredTokens } from "./account-tokens.ts";

export type TokenSource = {
  /** Tokens valid for at least the expiry margin. */
  current(signal?: AbortSignal): Promise<StoredTokens>;
  /** New tokens after the vendor rejected `rejectedAccessToken`. */
  afterRejection(rejectedAccessToken: string, signal?: AbortSignal): Promise<StoredTokens>;
};

export type ShapedRequest = {
  url: string;
  init: RequestInit;
  /** Rewrites the response before the SDK reads it (e.g. unwrapping an envelope). */
  transformResponse?: (response: Response) => Response | Promise<Response>;
};

export type RequestShaper = (url: string, init: RequestInit, tokens: StoredTokens) => ShapedRequest;

function requestParts(input: RequestInfo | URL, init: RequestInit | undefined): { url: string; init: RequestInit } {
  if (input instanceof Request) {
    return { url: input.url, init: { method: input.method, headers: input.headers, ...init } };
  }
  return { url: input.toString(), init: init ?? {} };
}

export function createAuthorizedFetch(
  source: TokenSource,
  shape: RequestShaper,
  baseFetch: typeof globalThis.fetch = plainFetch,
): typeof globalThis.fetch {
  const send = async (url: string, init: RequestInit, tokens: StoredTokens) => {
    const shaped = shape(url, init, tokens);
    const response = await baseFetch(shaped.url, shaped.init);
    return { response, shaped };
  };
  return async (input, rawInit) => {
    const { url, init } = requestParts(input, rawInit);
    const signal = init.signal ?? undefined;
    const tokens = await source.current(signal);
    let { response, shaped } = await send(url, init, tokens);
    if (response.status === 401) {
      await response.body?.cancel().catch(() => undefined);
      const renewed = await source.afterRejection(tokens.accessToken, signal);
      ({ response, shaped } = await send(url, init, renewed));
    }
    return response.ok && shaped.transformResponse ? shaped.transformResponse(response) : response;
  };
}
