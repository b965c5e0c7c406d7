// The URL guard decides whether a user may point the server at an address, so both halves of the
// table matter: every private form (IPv4, IPv6, IPv4 hidden inside IPv6) must be refused, and public
// addresses must pass. Resolution is injected: these tests never touch the network.
import type { LookupAddress } from "node:dns";

import { describe, expect, it, vi } from "vitest";

import { AppError } from "../errors.ts";
import { assertPublicUrl, isPrivateAddress, type LookupAll } from "./url-guard.ts";

const REFUSED = /refused: ".*" resolves to a private address; an admin can allow it with MCP_ALLOW_PRIVATE_URLS/;

function lookupReturning(...addresses: string[]): LookupAll & ReturnType<typeof vi.fn> {
  return vi.fn((_hostname: string) =>
    Promise.resolve(addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }))),
  );
}

async function appErrorFrom(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("bad_request:api");
  return error as AppError;
}

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback /8"],
    ["10.0.0.1", "private 10/8"],
    ["10.255.255.255", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12"],
    ["192.168.1.1", "private 192.168/16"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["192.0.0.170", "IETF protocol assignments"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["0:0:0:0:0:0:0:1", "IPv6 loopback, long form"],
    ["::", "IPv6 unspecified"],
    ["fc00::1", "unique local"],
    ["fd12:3456:789a::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf:ffff::1", "link-local /10 upper end"],
    ["fec0::1", "site-local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.1.2.3", "IPv4-mapped private"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped link-local"],
    ["0:0:0:0:0:ffff:192.168.0.1", "IPv4-mapped private, long form"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private address"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:c0a8:0101::1", "6to4 of 192.168.1.1"],
    ["2002:7f00:1::", "6to4 of 127.0.0.1"],
    ["100::1", "discard-only"],
  ])("refuses %s (%s)", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ["8.8.8.8", "public IPv4"],
    ["1.1.1.1", "public IPv4"],
    ["93.184.215.14", "public IPv4"],
    ["172.15.255.255", "just below 172.16/12"],
    ["172.32.0.0", "just above 172.16/12"],
    ["100.63.255.255", "just below CGNAT"],
    ["100.128.0.0", "just above CGNAT"],
    ["169.253.255.255", "just below link-local"],
    ["11.0.0.1", "just above 10/8"],
    ["192.167.255.255", "just below 192.168/16"],
    ["2606:4700:4700::1111", "public IPv6"],
    ["2001:4860:4860::8888", "public IPv6"],
    ["fbff::1", "just below fc00::/7"],
    ["fe00::1", "between fc00::/7 and fe80::/10"],
    ["::ffff:8.8.8.8", "IPv4-mapped public"],
    ["64:ff9b::8.8.8.8", "NAT64 of a public address"],
    ["2002:0808:0808::1", "6to4 of 8.8.8.8"],
  ])("allows %s (%s)", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("assertPublicUrl", () => {
  it("allows a host that resolves only to public addresses, asking for every address", async () => {
    const lookup = lookupReturning("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
    await expect(
      assertPublicUrl("https://mcp.example.com/mcp", { allowPrivate: false, lookup }),
    ).resolves.toBeUndefined();
    expect(lookup).toHaveBeenCalledWith("mcp.example.com", { all: true, verbatim: true });
  });

  it("refuses a host with one private address among public ones", async () => {
    const lookup = lookupReturning("93.184.215.14", "10.0.0.7");
    const error = await appErrorFrom(assertPublicUrl("https://mixed.example.com/", { allowPrivate: false, lookup }));
    expect(error.message).toMatch(REFUSED);
    expect(error.message).toContain('"mixed.example.com"');
  });

  it.each([
    "http://127.0.0.1:8080/mcp",
    "http://[::1]/mcp",
    "http://[::ffff:127.0.0.1]/mcp",
    "http://[fe80::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://2130706433/", // 127.0.0.1 as one number
    "http://0x7f.1/", // 127.0.0.1 in hex shorthand
    "http://0/",
    "http://localhost:3000/mcp",
    "http://LOCALHOST./mcp",
    "http://api.localhost/mcp",
  ])("refuses %s without resolving a name", async (url) => {
    const lookup = lookupReturning("93.184.215.14");
    const error = await appErrorFrom(assertPublicUrl(url, { allowPrivate: false, lookup }));
    expect(error.message).toMatch(REFUSED);
    expect(lookup).not.toHaveBeenCalled();
  });

  it("allows a public IP literal without resolving it", async () => {
    const lookup = lookupReturning("10.0.0.1");
    await assertPublicUrl("https://93.184.215.14/mcp", { allowPrivate: false, lookup });
    await assertPublicUrl("https://[2606:4700:4700::1111]/mcp", { allowPrivate: false, lookup });
    expect(lookup).not.toHaveBeenCalled();
  });

  it("allows private addresses when the admin allows them, without resolving", async () => {
    const lookup = lookupReturning("10.0.0.1");
    await assertPublicUrl("http://localhost:3000/mcp", { allowPrivate: true, lookup });
    await assertPublicUrl("http://intranet.corp/mcp", { allowPrivate: true, lookup });
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each(["ftp://files.example.com/", "file:///etc/passwd", "ws://mcp.example.com/", "javascript:alert(1)"])(
    "refuses the non-http URL %s even when private addresses are allowed",
    async (url) => {
      const error = await appErrorFrom(assertPublicUrl(url, { allowPrivate: true, lookup: lookupReturning() }));
      expect(error.message).toBe("The connector URL must start with http:// or https://.");
    },
  );

  it("refuses text that is not a URL", async () => {
    const error = await appErrorFrom(assertPublicUrl("mcp.example.com", { allowPrivate: false }));
    expect(error.message).toBe("The connector URL is not a valid URL.");
  });

  it("refuses a host that does not resolve, or resolves to nothing", async () => {
    const failing: LookupAll = () =>
      Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }));
    const unresolved = await appErrorFrom(
      assertPublicUrl("https://nope.invalid/", { allowPrivate: false, lookup: failing }),
    );
    expect(unresolved.message).toBe('The connector URL\'s host "nope.invalid" could not be resolved.');
    const empty = await appErrorFrom(
      assertPublicUrl("https://empty.example/", { allowPrivate: false, lookup: lookupReturning() }),
    );
    expect(empty.message).toContain("has no address");
  });

  it("gives up on a lookup that hangs", async () => {
    const hanging: LookupAll = () => new Promise(() => undefined);
    const error = await appErrorFrom(
      assertPublicUrl("https://slow.example/", { allowPrivate: false, lookup: hanging, timeoutMs: 20 }),
    );
    expect(error.message).toContain("could not be resolved");
    expect((error.cause as Error).message).toContain("timed out after 20 ms");
  });
});
