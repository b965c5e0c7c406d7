// What the model picker offers a user: the server-wide providers (keys from env) and the user's own
// provider accounts (API keys, OpenAI-compatible endpoints, subscriptions), each with its models.
// Never carries a credential. An account that needs reconnecting is listed (so a chat that uses it
// shows why it fails) but marked.
import type { Db } from "../db/client.ts";
import type { ProviderId } from "../core/canonical.ts";
import { listAccounts } from "./accounts.ts";
import { listConfiguredProviders, type ProviderEnv } from "./model-factory.ts";

export type ModelSource = {
  /** `server:<provider>` or `account:<id>`. */
  key: string;
  provider: ProviderId;
  /** Null for the server-wide configuration. */
  accountId: string | null;
  name: string;
  /** Who an account is connected as, or the endpoint, when known. */
  detail: string | null;
  kind: "server" | "api_key" | "compatible" | "subscription";
  models: string[];
  nativeTools: boolean;
  needsReconnect: boolean;
};

export async function listModelSources(db: Db, env: ProviderEnv, ownerId: string): Promise<ModelSource[]> {
  const server: ModelSource[] = listConfiguredProviders(env).map((provider) => ({
    key: `server:${provider.id}`,
    provider: provider.id,
    accountId: null,
    name: provider.name,
    detail: null,
    kind: "server",
    models: provider.models,
    nativeTools: provider.nativeTools,
    needsReconnect: false,
  }));
  const accounts: ModelSource[] = (await listAccounts(db, ownerId)).map((account) => ({
    key: `account:${account.id}`,
    provider: account.provider,
    accountId: account.id,
    name: account.label,
    detail: account.identity ?? account.baseUrl,
    kind: account.kind,
    models: account.models,
    nativeTools: account.nativeTools,
    needsReconnect: account.status === "reconnect_needed",
  }));
  return [...server, ...accounts];
}
