// How this server reaches remote MCP connectors, as one policy the connection pool and the OAuth flow
// share: `checkUrl` runs before every connect (a clear, early refusal), and `fetchFor` is the fetch
// every request on behalf of a connector goes through (MCP transport, SSE, OAuth discovery and
// tokens). With MCP_ALLOW_PRIVATE_URLS nothing is refused and the global fetch is used. Otherwise the
// admin file's URLs are trusted as written (their own origin is reached as configured), and every
// other request — user connectors, OAuth endpoints, any redirect — goes through guardedFetch over one
// pinned agent, so it connects only to addresses that passed the check at connect time.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent } from "undici";

import { guardedFetch } from "./guarded-fetch.ts";
import { createPinnedAgent } from "../core/pinned-agent.ts";
import { type AddressRule, assertPublicUrl, type LookupAll } from "../core/url-guard.ts";

export type RemoteAccess = {
  /** Throws an AppError when `url` may not be connected to. */
  checkUrl(url: string): Promise<void>;
  /** The fetch for a connector at `connectorUrl`; undefined means the global fetch. */
  fetchFor(connectorUrl: string): FetchLike | undefined;
};

export type RemoteAccessOptions = {
  allowPrivate: boolean;
  /** URLs from the admin file, trusted as written. */
  trustedUrls?: Iterable<string>;
  lookup?: LookupAll;
  isAllowedAddress?: AddressRule;
};

export function createRemoteAccess(options: RemoteAccessOptions): RemoteAccess & { close(): Promise<void> } {
  const { allowPrivate, lookup, isAllowedAddress } = options;
  const trusted = new Set(options.trustedUrls);
  const pinned = createPinnedAgent({ lookup, isAllowedAddress });
  const plain = new Agent();
  return {
    checkUrl: (url) => (trusted.has(url) ? Promise.resolve() : assertPublicUrl(url, options)),
    fetchFor: (connectorUrl) => {
      if (allowPrivate) return undefined;
      const trustedOrigin = trusted.has(connectorUrl) ? new URL(connectorUrl).origin : null;
      return guardedFetch({ pinned, plain, trustedOrigin, isAllowedAddress });
    },
    close: async () => {
      await Promise.all([pinned.close(), plain.close()]);
    },
  };
}
