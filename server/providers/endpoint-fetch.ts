// The fetch for everything a user points the server at among model providers: an OpenAI-compatible
// endpoint's `/models` list and its chat requests. Unless private addresses are allowed
// (PROVIDER_ALLOW_PRIVATE_URLS; by default only in the single-user embedded setup) it is the
// connectors' guard (server/mcp): the pinned-address agent, so the address connected to is the
// address checked (DNS rebinding gets nowhere), and redirects followed hop by hop, each hop checked.
// A refusal is one fixed sentence naming the setting, whatever the target, its port or whether
// anything listens there: it is decided before any connection, so it maps nothing. It is thrown as
// an AppError (not a "fetch failed"), so the AI SDK and safe-error.ts pass its words to the turn.
import { AppError, isAppError } from "../errors.ts";
import { guardedFetch } from "../core/guarded-fetch.ts";
import { plainFetch } from "../core/plain-fetch.ts";
import { createPinnedAgent } from "../core/pinned-agent.ts";
import { type AddressRule, isPublicAddress, type LookupAll } from "../core/url-guard.ts";

export const ENDPOINT_REFUSAL =
  "This endpoint is on a private network (a loopback, LAN or link-local address), which this server does not allow; an admin can allow it with PROVIDER_ALLOW_PRIVATE_URLS.";

export type EndpointGuard = {
  allowPrivate: boolean;
  /** Test seams: the resolver and the address rule (default: the system resolver, public addresses only). */
  lookup?: LookupAll;
  isAllowedAddress?: AddressRule;
};

export function endpointRefusal(): AppError {
  return new AppError("bad_request:provider", ENDPOINT_REFUSAL);
}

/** The refusal inside a guarded fetch failure ("fetch failed" with it as cause), if that is what it is. */
function refusalIn(error: unknown): AppError | null {
  const cause = error instanceof Error ? error.cause : undefined;
  return isAppError(cause) && cause.message === ENDPOINT_REFUSAL ? cause : null;
}

/** A fetch that only reaches what `guard` allows; redirects are followed and checked hop by hop. */
export function createEndpointFetch(guard: EndpointGuard): typeof globalThis.fetch {
  if (guard.allowPrivate) return plainFetch;
  const isAllowedAddress = guard.isAllowedAddress ?? isPublicAddress;
  const pinned = createPinnedAgent({ lookup: guard.lookup, isAllowedAddress, refusal: endpointRefusal });
  const guarded = guardedFetch({ pinned, isAllowedAddress, refusal: endpointRefusal });
  return async (input, init) => {
    // Callers (the AI SDK, fetchCompatibleModels) pass a URL and an init, never a Request.
    if (input instanceof Request) throw new TypeError("The endpoint fetch takes a URL and an init, not a Request.");
    try {
      return await guarded(input, init);
    } catch (error) {
      throw refusalIn(error) ?? error;
    }
  };
}

const shared = new Map<boolean, typeof globalThis.fetch>();

/** The process's endpoint fetch for the configured setting (one pinned agent, reused). */
export function endpointFetch(allowPrivate: boolean): typeof globalThis.fetch {
  let fetch = shared.get(allowPrivate);
  if (!fetch) {
    fetch = createEndpointFetch({ allowPrivate });
    shared.set(allowPrivate, fetch);
  }
  return fetch;
}
