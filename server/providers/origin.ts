// Where provider data comes from and where it may go back to. Encrypted reasoning (OpenAI), thinking
// signatures (Anthropic), thought signatures (Gemini), reasoning item ids and the provider's own
// tool-call ids are valid only for the account and the endpoint that issued them: the Codex backend
// rejects an OpenAI API key's encrypted reasoning, Code Assist a Gemini API key's signatures, one
// key another's. A request's origin is the account it runs on ("server" for the server-wide
// configuration) and its endpoint family; stored data goes back only to an identical origin. Data
// stored before origins were recorded goes back only to the server-wide configuration, as it did.
import type { ProviderId, ProviderOrigin } from "../core/canonical.ts";

export const SERVER_ACCOUNT = "server";

export type AccountKind = "server" | "api_key" | "compatible" | "subscription";

const apiEndpoints: Record<ProviderId, string> = {
  anthropic: "anthropic-messages",
  openai: "openai-responses",
  google: "gemini-api",
  "openai-compatible": "openai-compatible",
};

const subscriptionEndpoints: Partial<Record<ProviderId, string>> = {
  anthropic: "claude-code",
  openai: "chatgpt-codex",
  google: "code-assist",
};

/** The endpoint family a provider is reached through for an account of `kind`. */
export function endpointFamily(provider: ProviderId, kind: AccountKind): string {
  return (kind === "subscription" && subscriptionEndpoints[provider]) || apiEndpoints[provider];
}

/** The origin of requests on `account` (null: the server-wide configuration). */
export function originOf(provider: ProviderId, account: { id: string; kind: AccountKind } | null): ProviderOrigin {
  return account
    ? { account: account.id, endpoint: endpointFamily(provider, account.kind) }
    : { account: SERVER_ACCOUNT, endpoint: endpointFamily(provider, "server") };
}

/** May data from `stored` be sent with a request from `current`? */
export function isSameOrigin(stored: ProviderOrigin | undefined, current: ProviderOrigin): boolean {
  if (!stored) return current.account === SERVER_ACCOUNT;
  return stored.account === current.account && stored.endpoint === current.endpoint;
}
