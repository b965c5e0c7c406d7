// What the harness OAuth server remembers: issued authorization codes (with their PKCE challenge),
// refresh tokens (single-use when the vendor rotates them; revocable to simulate a permanent failure),
// pending device codes, and a log of every token-endpoint call for tests to assert on.
import { createHash, randomBytes } from "node:crypto";

import type { Vendor } from "./tokens.ts";

export type CodeGrant = {
  vendor: Vendor;
  clientId: string;
  redirectUri: string;
  challenge: string;
  state: string;
  scope: string;
};

export type RefreshGrant = { vendor: Vendor; isUsed: boolean; isRevoked: boolean };

export type DeviceGrant = {
  deviceAuthId: string;
  userCode: string;
  isApproved: boolean;
  expiresAt: number;
  lastPollAt: number;
  /** Issued once approved: the code and PKCE pair the device poll answers. */
  authorizationCode?: string;
  verifier: string;
};

export type TokenCall = { vendor: Vendor; grant: string; outcome: string; at: number };

export const randomToken = (prefix: string) => `${prefix}${randomBytes(18).toString("base64url")}`;
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export class OAuthState {
  readonly codes = new Map<string, CodeGrant>();
  readonly refreshTokens = new Map<string, RefreshGrant>();
  readonly devices = new Map<string, DeviceGrant>();
  /** Authorization codes of approved device logins → their PKCE challenge. */
  readonly deviceCodes = new Map<string, string>();
  readonly log: TokenCall[] = [];
  /** Answer sign-ins without saying who signed in (no Anthropic account email, no Google userinfo email). */
  hidesIdentity = false;

  record(vendor: Vendor, grant: string, outcome: string): void {
    this.log.push({ vendor, grant, outcome, at: Date.now() });
  }

  newRefreshToken(vendor: Vendor): string {
    const token = randomToken(`${vendor}-rt-`);
    this.refreshTokens.set(token, { vendor, isUsed: false, isRevoked: false });
    return token;
  }

  revokeRefreshTokens(vendor: Vendor): void {
    for (const grant of this.refreshTokens.values()) if (grant.vendor === vendor) grant.isRevoked = true;
  }

  reset(): void {
    this.codes.clear();
    this.refreshTokens.clear();
    this.devices.clear();
    this.deviceCodes.clear();
    this.log.length = 0;
    this.hidesIdentity = false;
  }
}
