// Creates the AI SDK model for a provider and reports which providers this server is configured for.
// Anthropic uses the Messages API, OpenAI the Responses API, Google the Gemini API, and an
// OpenAI-compatible server the chat-completions API. Keys and base URLs are always passed in
// explicitly (from server/env.ts via resolveProviderConfig): the factory refuses to build a keyed
// model without a key, because the SDKs would otherwise read process.env themselves. `fetch` is the
// seam for tests and for request shaping (OAuth headers); without one, Node's own fetch is used,
// not the wrapper Next.js puts over it (plain-fetch.ts). Every model retries a request that failed
// before any output streamed, and only then (retry-before-output.ts).
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";

import type { Env } from "../env.ts";
import { AppError } from "../errors.ts";
import type { ProviderId } from "../core/canonical.ts";
import { plainFetch } from "../core/plain-fetch.ts";
import { OPENAI_COMPATIBLE_SDK_NAME } from "./provider-keys.ts";
import { withRetryBeforeOutput } from "./retry-before-output.ts";

export type ModelConnection = {
  provider: ProviderId;
  modelId: string;
  apiKey?: string;
  /** Anthropic only: an OAuth bearer token instead of an API key (subscription accounts). */
  authToken?: string;
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
};

export type ProviderConfig = { apiKey?: string; baseURL?: string };

/** What the model picker may show; never includes a key. */
export type ConfiguredProvider = { id: ProviderId; name: string; models: string[]; nativeTools: boolean };

export type ProviderEnv = Pick<
  Env,
  | "ANTHROPIC_API_KEY"
  | "ANTHROPIC_BASE_URL"
  | "ANTHROPIC_MODELS"
  | "OPENAI_API_KEY"
  | "OPENAI_BASE_URL"
  | "OPENAI_MODELS"
  | "GOOGLE_GENERATIVE_AI_API_KEY"
  | "GOOGLE_BASE_URL"
  | "GOOGLE_MODELS"
  | "OPENAI_COMPATIBLE_BASE_URL"
  | "OPENAI_COMPATIBLE_API_KEY"
  | "OPENAI_COMPATIBLE_NAME"
  | "OPENAI_COMPATIBLE_MODELS"
  | "OPENAI_COMPATIBLE_NATIVE_TOOLS"
>;

const displayNames: Record<Exclude<ProviderId, "openai-compatible">, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  google: "Google Gemini",
};

function requireKey(connection: ModelConnection): string {
  if (connection.apiKey) return connection.apiKey;
  throw new AppError("unavailable:config", `No API key is configured for ${connection.provider}.`);
}

/** The AI SDK language model for one provider and model id, retrying only before any output. */
export function createLanguageModel(connection: ModelConnection): LanguageModelV4 {
  return withRetryBeforeOutput(createSdkModel(connection));
}

function createSdkModel(connection: ModelConnection): LanguageModelV4 {
  const { provider, modelId, baseURL } = connection;
  const fetch = connection.fetch ?? plainFetch;
  switch (provider) {
    case "anthropic":
      return connection.authToken
        ? createAnthropic({ authToken: connection.authToken, baseURL, fetch })(modelId)
        : createAnthropic({ apiKey: requireKey(connection), baseURL, fetch })(modelId);
    case "openai":
      return createOpenAI({ apiKey: requireKey(connection), baseURL, fetch }).responses(modelId);
    case "google":
      return createGoogleGenerativeAI({ apiKey: requireKey(connection), baseURL, fetch })(modelId);
    case "openai-compatible": {
      if (!baseURL)
        throw new AppError("unavailable:config", "No base URL is configured for the OpenAI-compatible server.");
      const compatible = createOpenAICompatible({
        name: OPENAI_COMPATIBLE_SDK_NAME,
        baseURL,
        apiKey: connection.apiKey,
        fetch,
      });
      return compatible.chatModel(modelId);
    }
  }
}

function configOf(env: ProviderEnv, provider: ProviderId): ProviderConfig & { configured: boolean } {
  switch (provider) {
    case "anthropic":
      return { apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL, configured: !!env.ANTHROPIC_API_KEY };
    case "openai":
      return { apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, configured: !!env.OPENAI_API_KEY };
    case "google":
      return {
        apiKey: env.GOOGLE_GENERATIVE_AI_API_KEY,
        baseURL: env.GOOGLE_BASE_URL,
        configured: !!env.GOOGLE_GENERATIVE_AI_API_KEY,
      };
    case "openai-compatible":
      return {
        apiKey: env.OPENAI_COMPATIBLE_API_KEY,
        baseURL: env.OPENAI_COMPATIBLE_BASE_URL,
        configured: !!env.OPENAI_COMPATIBLE_BASE_URL,
      };
  }
}

/** The key and base URL createLanguageModel needs; throws `unavailable:config` for an unconfigured provider. */
export function resolveProviderConfig(env: ProviderEnv, provider: ProviderId): ProviderConfig {
  const { configured, apiKey, baseURL } = configOf(env, provider);
  if (!configured)
    throw new AppError("unavailable:config", `The ${provider} provider is not configured on this server.`);
  return { ...(apiKey && { apiKey }), ...(baseURL && { baseURL }) };
}

/** The providers with a key (or, for OpenAI-compatible, a base URL), in a fixed order, without keys. */
export function listConfiguredProviders(env: ProviderEnv): ConfiguredProvider[] {
  const listed: ConfiguredProvider[] = [
    { id: "anthropic", name: displayNames.anthropic, models: env.ANTHROPIC_MODELS, nativeTools: true },
    { id: "openai", name: displayNames.openai, models: env.OPENAI_MODELS, nativeTools: true },
    { id: "google", name: displayNames.google, models: env.GOOGLE_MODELS, nativeTools: true },
    {
      id: "openai-compatible",
      name: env.OPENAI_COMPATIBLE_NAME,
      models: env.OPENAI_COMPATIBLE_MODELS,
      nativeTools: env.OPENAI_COMPATIBLE_NATIVE_TOOLS,
    },
  ];
  return listed
    .filter((provider) => configOf(env, provider.id).configured)
    .map((provider) => ({ ...provider, models: [...provider.models] }));
}

/** The models the server's own configuration offers for `provider` (none when it is not configured). */
export function serverModelsOf(env: ProviderEnv): (provider: ProviderId) => readonly string[] {
  const configured = listConfiguredProviders(env);
  return (provider) => configured.find((entry) => entry.id === provider)?.models ?? [];
}
