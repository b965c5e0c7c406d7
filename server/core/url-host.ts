// A hostname as it is written in a URL: an IPv6 address in brackets (`::1` → `[::1]`), anything
// else (a name, an IPv4 address, an address already bracketed) as it is.
export function urlHost(hostname: string): string {
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}
