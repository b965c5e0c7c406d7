// Keeps user-supplied connector URLs off the server's own network (SSRF): only http(s), and every
// address the host resolves to must be public. Refused: loopback, private, unique-local, link-local,
// unspecified, CGNAT, multicast and reserved ranges, plus IPv6 forms that embed such an IPv4 address
// (mapped, compatible, NAT64, 6to4) and `localhost` names. MCP_ALLOW_PRIVATE_URLS lifts the address
// rule for self-hosters whose MCP servers live on their LAN. The check runs when a URL is saved and
// before every connect, for a clear early refusal; what actually keeps requests off private
// addresses is the pinned agent (pinned-agent.ts), which checks the address it connects to.
import { type LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

import { AppError } from "../errors.ts";

/** The slice of dns.promises.lookup this module uses; injectable so tests need no network. */
export type LookupAll = (hostname: string, options: { all: true; verbatim: true }) => Promise<LookupAddress[]>;

/** Whether an address may be connected to; tests swap it to stand a loopback address in for a public one. */
export type AddressRule = (address: string) => boolean;

export type UrlGuardOptions = {
  allowPrivate: boolean;
  lookup?: LookupAll;
  timeoutMs?: number;
  isAllowedAddress?: AddressRule;
};

type Range = [base: number[], prefixBits: number];

const privateIpv4: Range[] = [
  [[0, 0, 0, 0], 8], // unspecified, "this network"
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15], // benchmarking
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

const privateIpv6: Range[] = [
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
];

/** IPv6 prefixes whose address carries an IPv4 address at `offset`; that IPv4 address decides. */
const embeddingIpv6: [...Range, offset: number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 12], // IPv4-mapped
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 12], // IPv4-compatible (also :: and ::1)
  [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, 12], // NAT64
  [[0x20, 0x02], 16, 2], // 6to4
];

function matches(bytes: number[], [base, prefixBits]: Range): boolean {
  for (let bit = 0; bit < prefixBits; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, prefixBits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((base[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIpv4(address: string): number[] {
  return address.split(".").map(Number);
}

/** 16 bytes of a valid IPv6 address (zone ids and a trailing dotted quad allowed). */
function parseIpv6(address: string): number[] {
  const text = address.split("%")[0]!;
  const toGroups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [parseInt(group, 16)];
          const [a, b, c, d] = parseIpv4(group) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = text.split("::");
  const headGroups = toGroups(head);
  const tailGroups = tail === undefined ? [] : toGroups(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups].flatMap((group) => [group >> 8, group & 0xff]);
}

/** True for any address a user-supplied URL must not reach; false for public ones and non-addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.split("%")[0]!);
  if (family === 4) return privateIpv4.some((range) => matches(parseIpv4(address), range));
  if (family !== 6) return false;
  const bytes = parseIpv6(address);
  if (bytes.every((byte) => byte === 0)) return true;
  if (matches(bytes, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128])) return true;
  for (const [base, prefixBits, offset] of embeddingIpv6) {
    if (matches(bytes, [base, prefixBits])) return isPrivateAddress(bytes.slice(offset, offset + 4).join("."));
  }
  return privateIpv6.some((range) => matches(bytes, range));
}

/** The default AddressRule: any address that is not private. */
export const isPublicAddress: AddressRule = (address) => !isPrivateAddress(address);

export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

function refuse(host: string): AppError {
  return new AppError(
    "bad_request:api",
    `The connector URL is refused: "${host}" resolves to a private address; an admin can allow it with MCP_ALLOW_PRIVATE_URLS.`,
  );
}

async function resolveAll(host: string, lookup: LookupAll, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const answers = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => answer.address);
  } catch (error) {
    throw new AppError("bad_request:api", `The connector URL's host "${host}" could not be resolved.`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throws bad_request:api unless `url` is an http(s) URL whose host resolves only to public addresses
 * (any address, with allowPrivate). Every resolved address counts, so a name with one private A record
 * among public ones is refused.
 */
export async function assertPublicUrl(url: string, options: UrlGuardOptions): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError("bad_request:api", "The connector URL is not a valid URL.");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new AppError("bad_request:api", "The connector URL must start with http:// or https://.");
  }
  if (options.allowPrivate) return;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isLocalhostName(host)) throw refuse(host);
  const addresses = isIP(host)
    ? [host]
    : await resolveAll(host, options.lookup ?? dnsLookup, options.timeoutMs ?? 5_000);
  if (addresses.length === 0)
    throw new AppError("bad_request:api", `The connector URL's host "${host}" has no address.`);
  if (!addresses.every(options.isAllowedAddress ?? isPublicAddress)) throw refuse(host);
}
