// PKCE (RFC 7636, S256 only) and random OAuth state for the subscription sign-ins, and the authorize
// URL that carries both. The verifier is 32 random bytes in base64url (43 characters), as the
// vendors' own CLIs make it; the state is a separate random value, never the verifier, so the string
// a user pastes back does not reveal the verifier.
import { createHash, randomBytes } from "node:crypto";

export type Pkce = { verifier: string; challenge: string; method: "S256" };

/** The S256 challenge of a verifier: base64url(sha256(verifier)). */
export function challengeOf(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: challengeOf(verifier), method: "S256" };
}

/** 32 random bytes in base64url. */
export function createState(): string {
  return randomBytes(32).toString("base64url");
}

/** An authorize URL: `base` with `params`, then the PKCE challenge and `state`, as its query. */
export function pkceAuthorizeUrl(base: string, params: Record<string, string>, pkce: Pkce, state: string): string {
  const url = new URL(base);
  url.search = new URLSearchParams({
    ...params,
    code_challenge: pkce.challenge,
    code_challenge_method: pkce.method,
    state,
  }).toString();
  return url.toString();
}
