// This process's session manager and MCP runtime, wired from env: the database, the registry (with
// the built-in tools), the model providers configured by API key / base URL and users' own provider
// accounts. Each is created once per process on first use (kept on globalThis across Next.js dev
// reloads); starting the manager also starts LISTEN and the lease sweeper. The MCP runtime is
// created here, above mcp/, so the registry reports every revision it commits to the session event
// log (`tools.changed`) from the start.
import { getDatabaseUrl, getDb } from "../db/client.ts";
import { env } from "../env.ts";
import { createMcpRuntime, installShutdown as installMcpShutdown, type McpRuntime } from "../mcp/mcp-runtime.ts";
import { listConfiguredProviders } from "../providers/model-factory.ts";
import { createModelResolver } from "../providers/model-resolver.ts";
import { subscriptionConnection } from "../providers/subscriptions/connection.ts";
import { SessionManager, type ModelChoice } from "./manager.ts";
import { startListening } from "../db/notifier.ts";
import { recordToolsChanged } from "./tools-changed.ts";

const globalForManager = globalThis as unknown as {
  patchbaySessionManager?: Promise<SessionManager>;
  patchbayMcp?: Promise<McpRuntime>;
};

export const SYSTEM_PROMPT =
  "You are a helpful assistant in Patchbay, a chat app. Use the available tools when they help, and say when a tool failed.";

/** The first configured provider and its first model, or null when none is configured. */
export function defaultModelChoice(): ModelChoice | null {
  const first = listConfiguredProviders(env).find((provider) => provider.models.length > 0);
  return first ? { provider: first.id, model: first.models[0]! } : null;
}

async function createManager(): Promise<SessionManager> {
  const db = await getDb();
  await startListening(await getDatabaseUrl());
  const { registry } = await getMcpRuntime();
  const manager = new SessionManager({
    db,
    tools: registry,
    resolveModel: createModelResolver({ db, env, subscriptionConnection }),
    defaultModel: defaultModelChoice,
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

async function createRuntime(): Promise<McpRuntime> {
  const db = await getDb();
  return createMcpRuntime({ onToolsChanged: recordToolsChanged(db) });
}

/** This process's MCP side: connectors, connection pool, registry (see mcp/mcp-runtime.ts). */
export function getMcpRuntime(): Promise<McpRuntime> {
  globalForManager.patchbayMcp ??= createRuntime().catch((error: unknown) => {
    globalForManager.patchbayMcp = undefined;
    throw error;
  });
  return globalForManager.patchbayMcp;
}

/**
 * Installs the graceful shutdown once per process: on SIGTERM / SIGINT, `stopTurns` (the session
 * manager's stop), then the MCP pool closes (ending every stdio child) and the HTTP agents close.
 */
export async function installShutdown(stopTurns: () => Promise<void>): Promise<void> {
  installMcpShutdown(await getMcpRuntime(), stopTurns);
}
