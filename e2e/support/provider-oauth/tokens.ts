// Access tokens of the harness' fake vendors: HS256 JWTs signed with a harness-only key, carrying the
// vendor, an expiry and (ChatGPT) the `https://api.openai.com/auth` claim. The OAuth server issues
// them and the fake LLM provider verifies them, in another process, without sharing any state:
// an expired, forged or other-vendor token is refused there with the vendor's 401.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type Vendor = "anthropic" | "openai" | "google";

const HARNESS_KEY = "patchbay-harness-only-token-key-not-a-secret";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const sign = (data: string) => createHmac("sha256", HARNESS_KEY).update(data).digest("base64url");

export function issueAccessToken(vendor: Vendor, ttlMs: number, claims: Record<string, unknown> = {}): string {
  const now = Date.now();
  const payload = { ...claims, vendor, jti: randomBytes(8).toString("hex"), iat: now, exp: now + ttlMs };
  const data = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  return `${data}.${sign(data)}`;
}

/** An unsigned-looking id_token: the app only reads its claims (the real vendors sign with RS256). */
export function issueIdToken(claims: Record<string, unknown>): string {
  const data = `${encode({ alg: "HS256", typ: "JWT" })}.${encode({ ...claims, iat: Math.floor(Date.now() / 1000) })}`;
  return `${data}.${sign(data)}`;
}

export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

export function verifyAccessToken(token: string | undefined, vendor: Vendor, now = Date.now()): TokenCheck {
  const parts = token?.split(".") ?? [];
  if (parts.length !== 3) return { ok: false, reason: "not a harness token" };
  const [header, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(`${header}.${payload}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: "bad signature" };
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
  if (claims.vendor !== vendor) return { ok: false, reason: `token of ${String(claims.vendor)}` };
  if (typeof claims.exp !== "number" || claims.exp <= now) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}

/** The bearer token of an Authorization header value. */
export const bearerOf = (header: string | undefined) => /^Bearer (\S+)$/i.exec(header ?? "")?.[1];
