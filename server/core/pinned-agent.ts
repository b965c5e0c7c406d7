// An undici Agent that opens sockets only to addresses the SSRF rule allows, checked at connect time
// on the address the socket actually uses. A host name is resolved once per connection, every answer
// must be allowed, and the socket connects to one of those answers: a DNS answer that changes between
// an earlier check and the connect (DNS rebinding) cannot slip a private address in. An IP literal is
// checked as written. Pair it with guarded-fetch.ts, which never lets undici follow a redirect itself.
import { type LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";

import { Agent, buildConnector } from "undici";

import { AppError } from "../errors.ts";
import { type AddressRule, isPublicAddress, type LookupAll } from "./url-guard.ts";

export type PinnedAgentOptions = {
  /** Resolves host names (default: the system resolver); injectable so tests need no DNS. */
  lookup?: LookupAll;
  isAllowedAddress?: AddressRule;
};

/** The refusal every guarded request fails with (as the `cause` of a "fetch failed" TypeError). */
export function refusedAddress(host: string): AppError {
  const what = isIP(host) === 0 ? "it resolves to a private address" : "it is a private address";
  return new AppError(
    "bad_request:connector",
    `Refused to connect to "${host}": ${what}; an admin can allow private addresses with MCP_ALLOW_PRIVATE_URLS.`,
  );
}

export function createPinnedAgent(options: PinnedAgentOptions = {}): Agent {
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const connect = buildConnector({ lookup: pinnedLookup(options.lookup ?? dnsLookup, isAllowed) });
  return new Agent({
    connect: (connectOptions, callback) => {
      const host = connectOptions.hostname;
      // Node skips `lookup` for IP literals, so they are checked here.
      if (isIP(host) !== 0 && !isAllowed(host)) {
        callback(refusedAddress(host), null);
        return;
      }
      connect(connectOptions, callback);
    },
  });
}

/** A net `lookup` that resolves through `resolve` and hands the socket only allowed answers. */
export function pinnedLookup(resolve: LookupAll, isAllowed: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (error: NodeJS.ErrnoException) => callback(error, "", 0);
    resolve(hostname, { all: true, verbatim: true }).then(
      (answers) => {
        if (answers.some((answer) => !isAllowed(answer.address))) return fail(refusedAddress(hostname));
        const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
        const usable = answers.filter((answer) => !family || answer.family === family);
        const first = usable[0];
        if (!first) return fail(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }));
        if (options.all) callback(null, usable satisfies LookupAddress[]);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
  };
}
