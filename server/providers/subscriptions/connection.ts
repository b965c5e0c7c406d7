// The model connection of a subscription account, for the model resolver: fresh tokens (refreshed
// under the account's row lock when they expire within a minute), the vendor's subscription base URL,
// and a fetch that shapes every request the way the vendor's own CLI sends it and refreshes once on
// a 401. Gemini accounts are onboarded to Code Assist on first use, once per account across
// instances (code-assist-project.ts); the project and tier are kept in the account's metadata. Refreshes are never tied to the turn's AbortSignal: a rotated refresh
// token must be stored even when the turn is stopped meanwhile.
import { createHash, randomUUID } from "node:crypto";

import type { Db } from "../../db/client.ts";
import { env as processEnv, type Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import type { ProviderAccount } from "../../generated/prisma/client.ts";
import { shapeClaudeCodeRequest } from "../anthropic/claude-code-request.ts";
import { refreshAnthropicTokens } from "../anthropic/subscription.ts";
import { refreshGoogleTokens } from "../google/code-assist.ts";
import { setupCodeAssist, type OnboardingOptions } from "../google/code-assist-onboarding.ts";
import { shapeCodeAssistRequest } from "../google/code-assist-request.ts";
import type { ModelConnection } from "../model-factory.ts";
import { readChatGptClaims, refreshChatGptTokens } from "../openai/chatgpt.ts";
import { shapeChatGptRequest } from "../openai/chatgpt-request.ts";
import { loadCodexInstructions } from "../openai/codex-instructions.ts";
import { openTokens, type StoredTokens } from "./account-tokens.ts";
import { createAuthorizedFetch, type TokenSource } from "./authorized-fetch.ts";
import { ensureCodeAssistProject } from "./code-assist-project.ts";
import { assertFlowEnabled, isSubscriptionFlow, reconnectNeededError, type SubscriptionFlow } from "./flows.ts";
import type { TokenSet } from "./oauth-http.ts";
import { isExpiring, refreshAccountTokens } from "./refresh-lock.ts";

export type SubscriptionConnection = Omit<ModelConnection, "modelId">;

export type ConnectionDeps = {
  env?: Env;
  /** The fetch the shaped requests go out with (tests). */
  fetch?: typeof globalThis.fetch;
  onboarding?: OnboardingOptions;
  now?: () => number;
  /** The chat this connection serves: ChatGPT's session id and prompt cache key derive from it. */
  conversationId?: string;
};

/** A stable UUID-shaped id for a chat (Codex sends a conversation UUID as session_id). */
export function conversationUuid(conversationId: string): string {
  const hex = createHash("sha256").update(`patchbay-conversation:${conversationId}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type Metadata = { chatgptAccountId?: string; project?: string; tier?: string };

function refresherFor(flow: SubscriptionFlow, env: Env): (tokens: StoredTokens) => Promise<TokenSet> {
  return (tokens) => {
    const refreshToken = tokens.refreshToken ?? "";
    if (flow === "anthropic") return refreshAnthropicTokens(env, refreshToken);
    if (flow === "openai") return refreshChatGptTokens(env, refreshToken);
    return refreshGoogleTokens(env, refreshToken);
  };
}

function createTokenSource(
  db: Db,
  account: ProviderAccount,
  flow: SubscriptionFlow,
  initial: StoredTokens,
  deps: ConnectionDeps,
): TokenSource {
  const env = deps.env ?? processEnv;
  const now = deps.now ?? Date.now;
  let state = { tokens: initial, expiresAt: account.expiresAt };
  const refresh = async (rejectedAccessToken?: string) => {
    state = await refreshAccountTokens(db, {
      accountId: account.id,
      flow,
      rejectedAccessToken,
      refresh: refresherFor(flow, env),
      now,
    });
    return state.tokens;
  };
  return {
    current: async () => (isExpiring(state.expiresAt, now()) ? refresh() : state.tokens),
    afterRejection: (rejected) => refresh(rejected),
  };
}

export async function subscriptionConnection(
  db: Db,
  account: ProviderAccount,
  signal?: AbortSignal,
  deps: ConnectionDeps = {},
): Promise<SubscriptionConnection> {
  const env = deps.env ?? processEnv;
  const flow = account.provider;
  if (account.kind !== "subscription" || !isSubscriptionFlow(flow)) {
    throw new AppError("internal:provider", "That provider account is not a subscription account.");
  }
  assertFlowEnabled(env, flow);
  if (account.status === "reconnect_needed") throw reconnectNeededError(flow);
  const source = createTokenSource(db, account, flow, await openTokens(account.secrets), deps);
  const tokens = await source.current(signal);
  const metadata = (account.metadata ?? {}) as Metadata;

  if (flow === "anthropic") {
    return {
      provider: "anthropic",
      authToken: tokens.accessToken,
      baseURL: env.ANTHROPIC_SUBSCRIPTION_BASE_URL,
      fetch: createAuthorizedFetch(source, shapeClaudeCodeRequest, deps.fetch),
    };
  }
  if (flow === "openai") {
    const accountId = metadata.chatgptAccountId ?? readChatGptClaims(tokens).accountId;
    if (!accountId) throw reconnectNeededError(flow);
    const sessionId = deps.conversationId ? conversationUuid(deps.conversationId) : randomUUID();
    const instructions = await loadCodexInstructions(env.CHATGPT_INSTRUCTIONS_DIR);
    const context = { accountId, sessionId, instructionsFor: instructions.forModel };
    return {
      provider: "openai",
      apiKey: tokens.accessToken,
      baseURL: env.CHATGPT_BASE_URL,
      fetch: createAuthorizedFetch(
        source,
        (url, init, current) => shapeChatGptRequest(url, init, current, context),
        deps.fetch,
      ),
    };
  }
  const project =
    metadata.project ??
    (await ensureCodeAssistProject(db, account.id, () =>
      setupCodeAssist(env, tokens.accessToken, { signal, ...deps.onboarding }),
    ));
  return {
    provider: "google",
    apiKey: tokens.accessToken,
    baseURL: `${env.CODE_ASSIST_BASE_URL.replace(/\/+$/, "")}/v1beta`,
    fetch: createAuthorizedFetch(
      source,
      (url, init, current) => shapeCodeAssistRequest(url, init, current, { config: env, project }),
      deps.fetch,
    ),
  };
}
