// The fetch every request on behalf of a remote connector goes through (MCP messages, the SSE stream,
// OAuth discovery, registration and token requests) unless private addresses are allowed. Invariants:
// - Each request connects through the pinned agent (pinned-agent.ts): only to allowed addresses,
//   checked on the address actually connected to, so DNS rebinding gets nowhere.
// - undici never follows a redirect by itself. A `redirect: "manual"` caller gets the 3xx back (its
//   next request comes through here again); `follow` is done here hop by hop, each target checked
//   before it is requested, with the fetch standard's method / body / credential rules; `error`
//   fails on any redirect.
// - `trustedOrigin` (an admin connector's own origin: the admin file is trusted as written) is reached
//   through a plain agent; any other origin, including wherever the trusted one redirects, is checked.
import { isIP } from "node:net";

import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type Dispatcher, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";

import { AppError } from "../errors.ts";
import { refusedAddress } from "../core/pinned-agent.ts";
import { type AddressRule, isLocalhostName, isPublicAddress } from "../core/url-guard.ts";

export type GuardedFetchOptions = {
  /** The pinned agent every untrusted request uses. */
  pinned: Dispatcher;
  /** The agent for `trustedOrigin` (default: undici's global one). */
  plain?: Dispatcher;
  trustedOrigin?: string | null;
  isAllowedAddress?: AddressRule;
  maxRedirects?: number;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

export function guardedFetch(options: GuardedFetchOptions): FetchLike {
  const { pinned, plain, trustedOrigin = null, maxRedirects = 5 } = options;
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const fetchHop = async (url: URL, init: RequestInit): Promise<Response> => {
    const isTrusted = url.origin === trustedOrigin;
    if (!isTrusted) assertAllowedTarget(url, isAllowed);
    const dispatcher = isTrusted ? plain : pinned;
    const hopInit = { ...init, redirect: "manual", ...(dispatcher && { dispatcher }) } as UndiciRequestInit;
    // undici's Response is the one Node's global fetch returns, from a pinned version.
    return (await undiciFetch(url, hopInit)) as unknown as Response;
  };
  return async (input, init = {}) => {
    let url = new URL(input);
    let hopInit = init;
    for (let hops = 0; ; hops += 1) {
      const response = await fetchHop(url, hopInit);
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
      if (location === null || init.redirect === "manual") return response;
      await response.body?.cancel();
      if (init.redirect === "error")
        throw blocked("The connector answered with a redirect, which is not allowed here.");
      if (hops >= maxRedirects) throw blocked(`The connector redirected more than ${maxRedirects} times.`);
      const next = new URL(location, url);
      hopInit = redirectedInit(hopInit, response.status, url, next);
      url = next;
    }
  };
}

/** Throws unless `url` is http(s) and not a localhost name or a refused IP literal (names are checked at connect). */
function assertAllowedTarget(url: URL, isAllowed: AddressRule): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw blocked(`Refused to fetch a ${url.protocol} URL for a connector.`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isLocalhostName(host) || (isIP(host) !== 0 && !isAllowed(host))) throw fetchFailed(refusedAddress(host));
}

/** The next hop's request, as the fetch standard shapes it (RFC 9110 §15.4). */
function redirectedInit(init: RequestInit, status: number, from: URL, to: URL): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  const becomesGet = (status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST");
  if (!becomesGet && init.body instanceof ReadableStream) {
    throw blocked("The connector redirected a streamed request, which cannot be sent again.");
  }
  if (becomesGet) for (const name of BODY_HEADERS) headers.delete(name);
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return { ...init, headers, ...(becomesGet && { method: "GET", body: null }) };
}

/** Failures look like undici's own ("fetch failed" with a cause), so callers treat them as transport errors. */
function fetchFailed(cause: AppError): TypeError {
  return new TypeError("fetch failed", { cause });
}

function blocked(message: string): TypeError {
  return fetchFailed(new AppError("bad_request:connector", message));
}
