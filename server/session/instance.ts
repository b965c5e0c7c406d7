// This process's session manager, wired from env: the database, the built-in tools, the model
// providers configured by API key / base URL and users' own provider accounts. Created once per process on first use (kept on
// globalThis across Next.js dev reloads); starting it also starts LISTEN and the lease sweeper.
import { getDatabaseUrl, getDb } from "../db.ts";
import { env } from "../env.ts";
import { getMcpRuntime } from "../mcp/instance.ts";
import { listConfiguredProviders, serverModelsOf } from "../providers/model-factory.ts";
import { createModelResolver } from "../providers/model-resolver.ts";
import { subscriptionConnection } from "../providers/subscriptions/connection.ts";
import { SessionManager, type ModelChoice } from "./manager.ts";
import { startListening } from "./notifier.ts";
import { type ChoiceRules, serverKeyUsage } from "./server-key-usage.ts";

const globalForManager = globalThis as unknown as { patchbaySessionManager?: Promise<SessionManager> };

export const SYSTEM_PROMPT =
  "You are a helpful assistant in Patchbay, a chat app. Use the available tools when they help, and say when a tool failed.";

/** The first configured provider and its first model, or null when none is configured. */
export function defaultModelChoice(): ModelChoice | null {
  const first = listConfiguredProviders(env).find((provider) => provider.models.length > 0);
  return first ? { provider: first.id, model: first.models[0]! } : null;
}

/** What a model choice must satisfy on this server: offered models and the per-user usage limits. */
export function choiceRules(): ChoiceRules {
  return {
    serverModels: serverModelsOf(env),
    usageLimits: { requestsPerMinute: env.USER_REQUESTS_PER_MINUTE, tokensPerDay: env.USER_TOKENS_PER_DAY },
  };
}

async function createManager(): Promise<SessionManager> {
  const db = await getDb();
  await startListening(await getDatabaseUrl());
  const { registry } = await getMcpRuntime();
  const manager = new SessionManager({
    db,
    tools: registry,
    resolveModel: createModelResolver({
      db,
      env,
      subscriptionConnection,
      serverKeyUsage: serverKeyUsage(db, choiceRules().usageLimits),
    }),
    defaultModel: defaultModelChoice,
    ...choiceRules(),
    maxSteps: env.TURN_MAX_STEPS,
    toolTimeoutMs: env.TOOL_TIMEOUT_MS,
    toolCallsPerResponse: env.TOOL_CALLS_PER_RESPONSE,
    toolCallsPerMinute: env.TOOL_CALLS_PER_MINUTE,
    system: SYSTEM_PROMPT,
  });
  manager.start();
  return manager;
}

export function getSessionManager(): Promise<SessionManager> {
  globalForManager.patchbaySessionManager ??= createManager().catch((error: unknown) => {
    globalForManager.patchbaySessionManager = undefined;
    throw error;
  });
  return globalForManager.patchbaySessionManager;
}
