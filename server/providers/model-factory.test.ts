// Provider configuration: which providers the env enables (never exposing keys), the config handed to
// the factory, and that each model calls its own API at the configured base URL.
import { streamText } from "ai";
import { describe, expect, it } from "vitest";

import { parseEnv } from "../env.ts";
import type { ProviderId } from "../core/canonical.ts";
import { createLanguageModel, listConfiguredProviders, resolveProviderConfig } from "./model-factory.ts";
import { capturingFetch, replyFor } from "../../e2e/support/testbeds/provider-wire.ts";

const fullEnv = parseEnv({
  ANTHROPIC_API_KEY: "sk-ant-secret",
  OPENAI_API_KEY: "sk-openai-secret",
  OPENAI_MODELS: "gpt-5.1, gpt-4.1",
  GOOGLE_GENERATIVE_AI_API_KEY: "google-secret",
  GOOGLE_BASE_URL: "https://gemini.example/v1beta",
  OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
  OPENAI_COMPATIBLE_MODELS: "llama3.2",
  OPENAI_COMPATIBLE_NAME: "Ollama",
  OPENAI_COMPATIBLE_NATIVE_TOOLS: "false",
});

describe("listConfiguredProviders", () => {
  it("lists configured providers with their models and never their keys", () => {
    const providers = listConfiguredProviders(fullEnv);
    expect(providers).toEqual([
      {
        id: "anthropic",
        name: "Anthropic",
        models: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
        nativeTools: true,
      },
      { id: "openai", name: "OpenAI", models: ["gpt-5.1", "gpt-4.1"], nativeTools: true },
      { id: "google", name: "Google Gemini", models: ["gemini-2.5-pro", "gemini-2.5-flash"], nativeTools: true },
      { id: "openai-compatible", name: "Ollama", models: ["llama3.2"], nativeTools: false },
    ]);
    expect(JSON.stringify(providers)).not.toMatch(/secret/);
  });

  it("leaves out providers without a key (or, for OpenAI-compatible, a base URL)", () => {
    const env = parseEnv({ OPENAI_API_KEY: "k", OPENAI_COMPATIBLE_API_KEY: "only-a-key" });
    expect(listConfiguredProviders(env).map((provider) => provider.id)).toEqual(["openai"]);
    expect(listConfiguredProviders(parseEnv({}))).toEqual([]);
  });
});

describe("resolveProviderConfig", () => {
  it("returns the key and base URL of a configured provider", () => {
    expect(resolveProviderConfig(fullEnv, "google")).toEqual({
      apiKey: "google-secret",
      baseURL: "https://gemini.example/v1beta",
    });
    expect(resolveProviderConfig(fullEnv, "openai-compatible")).toEqual({ baseURL: "http://127.0.0.1:11434/v1" });
  });

  it("throws unavailable:config for a provider that is not configured", () => {
    expect(() => resolveProviderConfig(parseEnv({}), "anthropic")).toThrow(
      expect.objectContaining({ code: "unavailable:config" }) as Error,
    );
  });
});

describe("createLanguageModel", () => {
  it.each([
    ["anthropic", "claude-sonnet-4-5", "https://anthropic.example/v1", "https://anthropic.example/v1/messages"],
    ["openai", "gpt-5.1", "https://openai.example/v1", "https://openai.example/v1/responses"],
    [
      "google",
      "gemini-2.5-flash",
      "https://gemini.example/v1beta",
      "https://gemini.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    ],
    ["openai-compatible", "llama3.2", "http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1/chat/completions"],
  ] as const)(
    "%s (%s) calls its API at the configured base URL",
    async (provider: ProviderId, modelId, baseURL, url) => {
      const { fetch, requests } = capturingFetch(replyFor(provider));
      const model = createLanguageModel({ provider, modelId, apiKey: "k", baseURL, fetch });
      await streamText({ model, prompt: "hi", maxRetries: 0, onError: () => {} }).consumeStream();
      expect(requests.map((request) => request.url)).toEqual([url]);
    },
  );

  it("refuses to build a keyed model without a key instead of letting the SDK read process.env", () => {
    expect(() => createLanguageModel({ provider: "openai", modelId: "gpt-5.1" })).toThrow(
      /No API key is configured for openai/,
    );
    expect(() => createLanguageModel({ provider: "openai-compatible", modelId: "x" })).toThrow(/No base URL/);
    expect(createLanguageModel({ provider: "openai-compatible", modelId: "x", baseURL: "http://h/v1" }).modelId).toBe(
      "x",
    );
  });
});
