// An engine for integration tests: a fresh real Postgres database, the fake provider server (real
// HTTP + SSE in each provider's wire format) and a SessionManager wired to both. Also the helpers
// tests use to wait for a turn and read what it stored.
import { randomUUID } from "node:crypto";

import { createLanguageModel, serverModelsOf } from "../../../server/providers/model-factory.ts";
import {
  createModelResolver,
  type ModelResolver,
  type ResolverOptions,
} from "../../../server/providers/model-resolver.ts";
import { createBuiltinToolSource } from "../../../server/mcp/builtin-tools.ts";
import type { ProviderId } from "../../../server/core/canonical.ts";
import { holdInstanceLock } from "../../../server/session/instance-lock.ts";
import { SessionManager, type ManagerOptions } from "../../../server/session/manager.ts";
import { startListening, stopListening } from "../../../server/db/notifier.ts";
import type { Db } from "../../../server/db/client.ts";
import { startFakeProvider } from "../fake-provider/server.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "./database.ts";

export type FakeProvider = Awaited<ReturnType<typeof startFakeProvider>>;
export type FakeProviderId = "anthropic" | "openai" | "google" | "compat";

export const fakeIdFor = (provider: ProviderId): FakeProviderId =>
  provider === "openai-compatible" ? "compat" : provider;

export function fakeBaseUrl(fake: { baseUrls: Record<FakeProviderId, string> }, provider: ProviderId): string {
  return fake.baseUrls[fakeIdFor(provider)];
}

export const TEST_MODELS: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-2.5-flash",
  "openai-compatible": "llama3.2",
};

export type FakeResolverOptions = {
  isNativeTools?: (provider: ProviderId) => boolean;
  fetch?: typeof globalThis.fetch;
};

/** Resolves every server-wide model to the fake provider (accounts are not involved). */
export function fakeResolver(
  fakeUrls: { baseUrls: Record<FakeProviderId, string> },
  options: FakeResolverOptions = {},
): ModelResolver {
  return ({ provider, model }) =>
    Promise.resolve({
      model: createLanguageModel({
        provider,
        modelId: model,
        apiKey: "test-key",
        baseURL: fakeBaseUrl(fakeUrls, provider),
        fetch: options.fetch,
      }),
      nativeTools: options.isNativeTools?.(provider) ?? true,
    });
}

export function createManager(
  db: Db,
  fakeUrls: { baseUrls: Record<FakeProviderId, string> },
  overrides: Partial<ManagerOptions> = {},
): SessionManager {
  return new SessionManager({
    db,
    tools: createBuiltinToolSource(),
    resolveModel: fakeResolver(fakeUrls),
    defaultModel: () => ({ provider: "anthropic", model: TEST_MODELS.anthropic }),
    serverModels: (provider) => [TEST_MODELS[provider]],
    maxSteps: 8,
    toolTimeoutMs: 5_000,
    toolCallsPerResponse: 8,
    toolCallsPerMinute: 1_000,
    leaseMs: 1_500,
    ...overrides,
  });
}

/**
 * A started manager whose models come from the app's real resolver over `resolver.env` (server keys,
 * users' own accounts and endpoints), offering the server models that env configures and no default
 * model; four steps a turn. The caller stops it.
 */
export function createResolverManager(resolver: ResolverOptions, overrides: Partial<ManagerOptions> = {}) {
  const manager = new SessionManager({
    db: resolver.db,
    tools: createBuiltinToolSource(),
    resolveModel: createModelResolver(resolver),
    defaultModel: () => null,
    serverModels: serverModelsOf(resolver.env),
    maxSteps: 4,
    toolTimeoutMs: 5_000,
    toolCallsPerResponse: 8,
    toolCallsPerMinute: 100,
    leaseMs: 2_000,
    ...overrides,
  });
  manager.start();
  return manager;
}

export type TestEngine = {
  database: TestDatabase;
  db: Db;
  fake: FakeProvider;
  manager: SessionManager;
  close(): Promise<void>;
};

/** `withInstanceLock`: the manager holds an instance lock, as the app's does (instance-lock.ts). */
export async function createTestEngine(
  overrides: Partial<ManagerOptions> = {},
  resolver: FakeResolverOptions = {},
  { withInstanceLock = false } = {},
): Promise<TestEngine> {
  const database = await createTestDatabase();
  const fake = await startFakeProvider({});
  await startListening(database.url);
  const instanceLock = withInstanceLock ? await holdInstanceLock(database.url, randomUUID()) : undefined;
  const manager = createManager(database.db, fake, {
    resolveModel: fakeResolver(fake, resolver),
    instanceLock,
    ...overrides,
  });
  manager.start();
  return {
    database,
    db: database.db,
    fake,
    manager,
    close: async () => {
      await manager.stop();
      await instanceLock?.release();
      await stopListening();
      await fake.close();
      await database.drop();
    },
  };
}

export async function createUserWithSession(db: Db, name = "Tester"): Promise<{ userId: string; sessionId: string }> {
  const user = await createTestUser(db, name);
  const session = await db.chatSession.create({ data: { ownerId: user.id, title: "New chat" } });
  return { userId: user.id, sessionId: session.id };
}

export async function waitFor<T>(
  read: () => Promise<T>,
  isDone: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function waitForTurnEnd(db: Db, turnId: string, timeoutMs?: number) {
  return waitFor(
    () => db.turn.findUniqueOrThrow({ where: { id: turnId } }),
    (turn) => turn.status !== "streaming",
    timeoutMs,
  );
}

export async function sessionMessages(db: Db, sessionId: string) {
  return db.message.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
}

/** Concatenated text of a stored message's text parts. */
export function messageText(message: { parts: unknown }): string {
  const parts = (message.parts ?? []) as { type: string; text?: string }[];
  return parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}
