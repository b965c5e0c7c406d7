// For integration tests of subscription accounts: the harness OAuth server, the fake provider, a real
// Postgres and a session manager whose resolver sends subscription accounts through
// subscriptionConnection, with an env pointing every vendor URL at the local servers (users' own API
// keys reach the fake provider's API endpoints too, so a chat can switch between both). Also plays the
// user in a browser tab: opens an authorize URL, presses Authorize and reads the code to paste.
import { startFakeProvider } from "../fake-provider/server.ts";
import { startProviderOAuth } from "../provider-oauth/server.ts";
import { parseEnv, type Env } from "../../../server/env.ts";
import { createBuiltinToolSource } from "../../../server/mcp/builtin-tools.ts";
import { SessionManager } from "../../../server/session/manager.ts";
import { startListening, stopListening } from "../../../server/db/notifier.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { createModelResolver } from "../../../server/providers/model-resolver.ts";
import { subscriptionConnection } from "../../../server/providers/subscriptions/connection.ts";
import { completeLogin, pollLogin, startLogin } from "../../../server/providers/subscriptions/logins.ts";

export type SubscriptionHarness = {
  database: TestDatabase;
  fake: Awaited<ReturnType<typeof startFakeProvider>>;
  oauth: Awaited<ReturnType<typeof startProviderOAuth>>;
  env: Env;
  manager: SessionManager;
  close(): Promise<void>;
};

export async function startSubscriptionHarness(): Promise<SubscriptionHarness> {
  const database = await createTestDatabase();
  const fake = await startFakeProvider({});
  const oauth = await startProviderOAuth({ timings: { minPollGapMs: 0 } });
  const env = parseEnv({
    PROVIDER_SUBSCRIPTIONS: "anthropic,openai,google",
    ...oauth.env,
    ANTHROPIC_SUBSCRIPTION_BASE_URL: fake.subscriptionUrls.anthropic,
    CHATGPT_BASE_URL: fake.subscriptionUrls.chatgpt,
    CODE_ASSIST_BASE_URL: fake.subscriptionUrls.codeAssist,
    ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
    OPENAI_BASE_URL: fake.baseUrls.openai,
    GOOGLE_BASE_URL: fake.baseUrls.google,
  });
  await startListening(database.url);
  const manager = new SessionManager({
    db: database.db,
    tools: createBuiltinToolSource(),
    resolveModel: createModelResolver({
      db: database.db,
      env,
      subscriptionConnection: (db, account, signal) =>
        subscriptionConnection(db, account, signal, { env, onboarding: { pollIntervalMs: 5 } }),
    }),
    defaultModel: () => null,
    maxSteps: 8,
    toolTimeoutMs: 5_000,
    toolCallsPerResponse: 8,
    toolCallsPerMinute: 1_000,
    leaseMs: 1_500,
    system: "You are Patchbay's test assistant.",
  });
  manager.start();
  return {
    database,
    fake,
    oauth,
    env,
    manager,
    close: async () => {
      await manager.stop();
      await stopListening();
      await Promise.all([fake.close(), oauth.close()]);
      await database.drop();
    },
  };
}

/** What a user does in the tab the connect page opened: Authorize, then copy the code shown. */
export async function authorizeInBrowser(authorizeUrl: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}: ${await page.text()}`);
  const shown = await (await fetch(authorizeUrl, { method: "POST" })).text();
  const code = /data-testid="auth-code">([^<]+)</.exec(shown)?.[1];
  if (!code) throw new Error(`no code on the page: ${shown}`);
  return code;
}

/** Signs `userId` in with a code-paste flow (Claude, Gemini) as a user would; answers the account id. */
export async function connectByCodePaste(h: SubscriptionHarness, userId: string, flow: "anthropic" | "google") {
  const start = await startLogin(h.database.db, userId, flow, h.env);
  if (start.kind !== "code-paste") throw new Error("expected a code-paste flow");
  const pasted = await authorizeInBrowser(start.authorizeUrl);
  return (await completeLogin(h.database.db, userId, start.loginId, pasted, h.env)).accountId;
}

/** Signs `userId` in with ChatGPT's device flow, approving the code at once; answers the account id. */
export async function connectChatGpt(h: SubscriptionHarness, userId: string): Promise<string> {
  const start = await startLogin(h.database.db, userId, "openai", h.env);
  if (start.kind !== "device-code") throw new Error("expected the device flow");
  h.oauth.approveDevice(start.userCode);
  const result = await pollLogin(h.database.db, userId, start.loginId, h.env);
  if (result.status !== "connected") throw new Error("expected the sign-in to finish");
  return result.accountId;
}
