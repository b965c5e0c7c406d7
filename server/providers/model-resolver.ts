// Resolves the model for one provider request: the provider + model + account a turn runs on, to an
// AI SDK language model and whether it calls tools natively. Called right before every request of a
// turn (not once per turn), so a subscription's token is refreshed when it is about to expire and a
// disconnected account fails the next request with a clear message. Invariants:
// - `accountId: null` is the server-wide configuration from env (API keys, base URLs).
// - An account is only used for a chat of its own owner (checked in the same query that reads it).
// - Credentials are opened here and handed to the SDK; they never reach a log or an error message.
// - The answer names the request's origin (account + endpoint family, origin.ts): provider data is
//   tagged with it and only sent back to the same origin.
import type { LanguageModel } from "ai";

import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ProviderAccount } from "../generated/prisma/client.ts";
import { assertPublicUrl } from "../core/url-guard.ts";
import type { ProviderId, ProviderOrigin } from "../core/canonical.ts";
import { openCredentials } from "./accounts.ts";
import {
  createLanguageModel,
  listConfiguredProviders,
  type ModelConnection,
  type ProviderEnv,
  resolveProviderConfig,
} from "./model-factory.ts";
import { originOf } from "./origin.ts";

export type ModelTarget = { provider: ProviderId; model: string; accountId: string | null; sessionId: string };
export type ResolvedModel = {
  model: LanguageModel;
  nativeTools: boolean;
  /** Where the request goes; absent means the server-wide configuration (test resolvers). */
  origin?: ProviderOrigin;
};
export type ModelResolver = (target: ModelTarget, signal?: AbortSignal) => Promise<ResolvedModel>;

/** Connection settings for a subscription account (bearer token, request shaping, refresh). */
export type SubscriptionConnector = (
  db: Db,
  account: ProviderAccount,
  signal?: AbortSignal,
  context?: { conversationId?: string },
) => Promise<Omit<ModelConnection, "provider" | "modelId">>;

export type ResolverEnv = ProviderEnv & { PROVIDER_ALLOW_PRIVATE_URLS: boolean };

export type ResolverOptions = {
  db: Db;
  env: ResolverEnv;
  subscriptionConnection?: SubscriptionConnector;
  /** The fetch used for API-key, endpoint and server-wide models (a test seam); default: global fetch. */
  fetch?: typeof globalThis.fetch;
};

const LAST_USED_RESOLUTION_MS = 60_000;

/** The base URL a user's own API key is sent to: the server's configured one (or the SDK default). */
function apiKeyBaseUrl(env: ProviderEnv, provider: ProviderId): string | undefined {
  if (provider === "anthropic") return env.ANTHROPIC_BASE_URL;
  if (provider === "openai") return env.OPENAI_BASE_URL;
  if (provider === "google") return env.GOOGLE_BASE_URL;
  return undefined;
}

export function createModelResolver(options: ResolverOptions): ModelResolver {
  const { db, env } = options;
  const serverProviders = listConfiguredProviders(env);

  async function accountConnection(account: ProviderAccount, sessionId: string, signal?: AbortSignal) {
    if (account.kind === "api_key") {
      const { apiKey } = await openCredentials(account);
      return { apiKey, baseURL: apiKeyBaseUrl(env, account.provider as ProviderId) };
    }
    if (account.kind === "compatible") {
      if (!account.baseUrl) throw new AppError("bad_request:provider", "This endpoint has no base URL.");
      await assertPublicUrl(account.baseUrl, { allowPrivate: env.PROVIDER_ALLOW_PRIVATE_URLS });
      const { apiKey } = await openCredentials(account);
      return { apiKey, baseURL: account.baseUrl };
    }
    if (!options.subscriptionConnection)
      throw new AppError("unavailable:provider", "Subscription accounts are not enabled on this server.");
    return options.subscriptionConnection(db, account, signal, { conversationId: sessionId });
  }

  return async (target, signal) => {
    if (target.accountId === null) {
      const connection = resolveProviderConfig(env, target.provider);
      const nativeTools = serverProviders.find((entry) => entry.id === target.provider)?.nativeTools ?? true;
      return {
        model: createLanguageModel({
          provider: target.provider,
          modelId: target.model,
          ...connection,
          fetch: options.fetch,
        }),
        nativeTools,
        origin: originOf(target.provider, null),
      };
    }
    const account = await db.providerAccount.findFirst({
      where: { id: target.accountId, owner: { chatSessions: { some: { id: target.sessionId } } } },
    });
    if (!account)
      throw new AppError(
        "bad_request:provider",
        "The provider account this chat uses was removed. Pick another model for this chat.",
      );
    if (account.status === "reconnect_needed")
      throw new AppError(
        "bad_request:provider",
        `Your account "${account.label}" needs to be connected again: open Settings → Providers and reconnect it.`,
      );
    if (account.provider !== target.provider)
      throw new AppError("bad_request:provider", "That account belongs to another provider.");
    const connection = { fetch: options.fetch, ...(await accountConnection(account, target.sessionId, signal)) };
    if (!account.lastUsedAt || Date.now() - account.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      void db.providerAccount
        .updateMany({ where: { id: account.id }, data: { lastUsedAt: new Date() } })
        .catch(() => undefined);
    }
    return {
      model: createLanguageModel({ provider: account.provider, modelId: target.model, ...connection }),
      nativeTools: account.nativeTools,
      origin: originOf(target.provider, account),
    };
  };
}
