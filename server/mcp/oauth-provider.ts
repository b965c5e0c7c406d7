// MCP OAuth for remote connectors (the MCP authorization spec, driven by the SDK's `auth()`): one
// McpOAuthProvider per (userId, connectorId) implements the SDK's OAuthClientProvider on top of a
// McpTokenStore. Invariants:
// - Everything is keyed by owner (userId + connectorId): one user's tokens, dynamic registration,
//   PKCE verifier and state are never read for another user, even on the same connector.
// - Tokens, client information and the code verifier reach the store sealed (AES-GCM, see
//   server/crypto/secrets.ts); the store never sees them in the clear. The state value is stored in
//   the clear because the callback looks the owner up by it; it is single-use.
// - `redirectToAuthorization` never navigates or throws: it records the URL, which the UI opens (or
//   a headless test client follows), and the callback finishes with `completeMcpAuthorization`.
// - A `background` provider (connections a chat or the registry opens) never starts an authorization:
//   no page can be shown there, and a new `state` would void the URL the user is about to open.
// - Whatever the SDK passes to `saveTokens` / `saveClientInformation` is stored unchanged (it carries
//   the issuer the SDK checks before presenting a refresh token), so a rotated refresh token replaces
//   the old one at once. Forgetting tokens after a refused refresh is a compare-and-set on the sealed
//   value this provider read: if another instance rotated them meanwhile, they stay (and the SDK's
//   retry reads them), so two concurrent refreshes never lose the newer refresh token.
// - `state` is single-use: the callback consumes it atomically before trading the code.
import { randomBytes } from "node:crypto";

import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import {
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { type FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

import { openSecret, sealSecret } from "../crypto/secrets.ts";

export type McpOAuthOwner = { userId: string; connectorId: string };

/** One owner's OAuth state as stored: `sealed*` fields hold sealSecret output of JSON / text. */
export type McpOAuthRecord = {
  sealedTokens: string | null;
  sealedClientInformation: string | null;
  sealedCodeVerifier: string | null;
  /** The pending authorization's `state`; unique across owners while set. */
  state: string | null;
  /** The URL the user must open to (re)authorize, until the callback completes. */
  authorizationUrl: string | null;
  /** The SDK's discovery result as JSON (public metadata, not secret). */
  discoveryState: string | null;
};

/** Persistence for McpOAuthProvider; implementations must keep owners strictly apart. */
export interface McpTokenStore {
  get(owner: McpOAuthOwner): Promise<McpOAuthRecord | null>;
  /** Merges `patch` into the owner's record (creating it); `null` clears a field. */
  update(owner: McpOAuthOwner, patch: Partial<McpOAuthRecord>): Promise<void>;
  /**
   * Compare-and-set: merges `patch` only if the owner's record exists and every field in `expected`
   * still holds that value (`null` matches a cleared field); true when it did. Atomic per owner.
   */
  updateIf(owner: McpOAuthOwner, expected: Partial<McpOAuthRecord>, patch: Partial<McpOAuthRecord>): Promise<boolean>;
  /** The owner of a pending authorization, for the callback route. */
  findOwnerByState(state: string): Promise<McpOAuthOwner | null>;
  /** Forgets everything for the owner (the user disconnects the connector). */
  remove(owner: McpOAuthOwner): Promise<void>;
}

/** How values are sealed at rest; the default is the instance key (sealSecret / openSecret). */
export type SecretSealer = { seal(plaintext: string): Promise<string>; open(sealed: string): Promise<string> };

export const instanceSealer: SecretSealer = { seal: sealSecret, open: openSecret };

/**
 * `default`: the SDK's usual flow. `background`: never starts an authorization (refresh still works);
 * `reauthorize`: ignores stored tokens so `auth()` starts a new authorization ("Reconnect"), and
 * registers again when the stored registration does not carry this redirect URL.
 */
export type McpOAuthMode = "default" | "background" | "reauthorize";

export type McpOAuthProviderOptions = {
  owner: McpOAuthOwner;
  mode?: McpOAuthMode;
  store: McpTokenStore;
  /** Patchbay's public origin (AUTH_URL); the callback is `${baseUrl}/api/mcp-oauth/callback`. */
  baseUrl: string;
  sealer?: SecretSealer;
  clientName?: string;
  /**
   * An https URL where Patchbay serves its client metadata document: authorization servers that
   * support client ID metadata documents then take it as the client_id instead of registering.
   */
  clientMetadataUrl?: string;
};

export function mcpOAuthRedirectUrl(baseUrl: string): string {
  return new URL("/api/mcp-oauth/callback", baseUrl).toString();
}

export class McpOAuthProvider implements OAuthClientProvider {
  readonly owner: McpOAuthOwner;
  readonly clientMetadataUrl?: string;
  private readonly store: McpTokenStore;
  private readonly sealer: SecretSealer;
  private readonly callbackUrl: string;
  private readonly clientName: string;
  private readonly mode: McpOAuthMode;
  /** The sealed tokens this provider last read or wrote (undefined: neither), for the compare-and-set. */
  private readSealedTokens: string | null | undefined;

  constructor(options: McpOAuthProviderOptions) {
    this.owner = { ...options.owner };
    this.mode = options.mode ?? "default";
    this.store = options.store;
    this.sealer = options.sealer ?? instanceSealer;
    this.callbackUrl = mcpOAuthRedirectUrl(options.baseUrl);
    this.clientName = options.clientName ?? "Patchbay";
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.callbackUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }

  async state(): Promise<string> {
    if (this.mode === "background") {
      throw new UnauthorizedError("Authorization needed: the user must connect their account to this connector.");
    }
    const state = randomBytes(24).toString("base64url");
    await this.store.update(this.owner, { state });
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const information = await this.openJson<OAuthClientInformationMixed>("sealedClientInformation");
    const redirectUris = information && "redirect_uris" in information ? information.redirect_uris : undefined;
    // Registered under another public URL: a new authorization needs a client for this redirect.
    if (this.mode === "reauthorize" && redirectUris && !redirectUris.includes(this.callbackUrl)) return undefined;
    return information;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    await this.store.update(this.owner, { sealedClientInformation: await this.sealJson(clientInformation) });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.mode === "reauthorize") return undefined;
    const sealed = (await this.store.get(this.owner))?.sealedTokens ?? null;
    this.readSealedTokens = sealed;
    return sealed ? (JSON.parse(await this.sealer.open(sealed)) as OAuthTokens) : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const sealed = await this.sealJson(tokens);
    await this.store.update(this.owner, { sealedTokens: sealed });
    this.readSealedTokens = sealed;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.store.update(this.owner, { authorizationUrl: authorizationUrl.toString() });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.store.update(this.owner, { sealedCodeVerifier: await this.sealer.seal(codeVerifier) });
  }

  async codeVerifier(): Promise<string> {
    const sealed = (await this.store.get(this.owner))?.sealedCodeVerifier;
    if (!sealed) throw new UnauthorizedError("No authorization is in progress for this connector.");
    return this.sealer.open(sealed);
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.store.update(this.owner, { discoveryState: JSON.stringify(state) });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const json = (await this.store.get(this.owner))?.discoveryState;
    return json ? (JSON.parse(json) as OAuthDiscoveryState) : undefined;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    // A new authorization never used the stored tokens; they stay until its new ones replace them.
    if (scope === "tokens" && this.mode === "reauthorize") return;
    if (scope === "tokens" && this.readSealedTokens !== undefined) {
      // Only the tokens the refused refresh used: newer ones another instance saved meanwhile stay.
      await this.store.updateIf(this.owner, { sealedTokens: this.readSealedTokens }, { sealedTokens: null });
      return;
    }
    const patch: Partial<McpOAuthRecord> = {};
    if (scope === "all" || scope === "tokens") patch.sealedTokens = null;
    if (scope === "all" || scope === "client") patch.sealedClientInformation = null;
    if (scope === "all" || scope === "verifier") Object.assign(patch, { sealedCodeVerifier: null, state: null });
    if (scope === "all" || scope === "discovery") patch.discoveryState = null;
    await this.store.update(this.owner, patch);
  }

  /** The URL the user must open to authorize, when an authorization is pending. */
  async pendingAuthorizationUrl(): Promise<string | null> {
    return (await this.store.get(this.owner))?.authorizationUrl ?? null;
  }

  /** The `state` of the pending authorization, if any. */
  async pendingState(): Promise<string | null> {
    return (await this.store.get(this.owner))?.state ?? null;
  }

  /** Takes the pending `state` if it is `state`: true once, for one caller, per authorization. */
  consumeState(state: string): Promise<boolean> {
    return this.store.updateIf(this.owner, { state }, { state: null });
  }

  /** Drops the single-use state, verifier and URL once an authorization finished (or was abandoned). */
  async clearPendingAuthorization(): Promise<void> {
    await this.store.update(this.owner, { state: null, sealedCodeVerifier: null, authorizationUrl: null });
  }

  private async openJson<T>(field: "sealedClientInformation"): Promise<T | undefined> {
    const sealed = (await this.store.get(this.owner))?.[field];
    return sealed ? (JSON.parse(await this.sealer.open(sealed)) as T) : undefined;
  }

  private async sealJson(value: unknown): Promise<string> {
    return this.sealer.seal(JSON.stringify(value));
  }
}

export type CompleteAuthorizationInput = {
  provider: McpOAuthProvider;
  /** The connector's MCP endpoint (the resource the tokens are for). */
  serverUrl: string;
  code: string;
  /** The `state` the authorization server echoed back; must match the provider's pending one. */
  state: string | null;
  fetchFn?: FetchLike;
};

/**
 * Finishes an authorization at the callback: consumes `state` if it is the owner's pending one (so a
 * replayed or concurrent callback fails), trades the code for tokens (the SDK's `auth()`, reusing the
 * saved discovery state), and clears the verifier and URL whatever the outcome. Throws
 * UnauthorizedError when the state does not match.
 */
export async function completeMcpAuthorization(input: CompleteAuthorizationInput): Promise<void> {
  const { provider, serverUrl, code, state, fetchFn } = input;
  if (!state || !(await provider.consumeState(state))) {
    throw new UnauthorizedError("The authorization response does not match a pending authorization.");
  }
  try {
    const result = await auth(provider, { serverUrl, authorizationCode: code, fetchFn });
    if (result !== "AUTHORIZED") throw new UnauthorizedError("The authorization server did not issue tokens.");
  } finally {
    await provider.clearPendingAuthorization();
  }
}
