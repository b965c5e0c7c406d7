// Subscription accounts end to end on the real Postgres, against the harness OAuth server and the
// fake provider's strict subscription endpoints: each sign-in flow as a user runs it, a real tool
// turn through each account via the session manager, silent refresh (before expiry and after a
// 401), refreshes serialised across concurrent callers, and a permanent refresh failure that marks
// the account and fails the turn with the reconnect message, once.
import { readFile } from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CODEX_INSTRUCTIONS_DIR } from "../../../e2e/support/fake-provider/subscriptions.ts";

import { issueAccessToken } from "../../../e2e/support/provider-oauth/tokens.ts";
import { USERS } from "../../../e2e/support/provider-oauth/vendors.ts";
import type { Db } from "../../db/client.ts";
import type { ProviderId } from "../../core/canonical.ts";
import { createTestUser } from "../../../e2e/support/testbeds/database.ts";
import { messageText, sessionMessages, waitForTurnEnd } from "../../../e2e/support/testbeds/engine.ts";
import {
  authorizeInBrowser,
  startSubscriptionHarness,
  type SubscriptionHarness,
} from "../../../e2e/support/testbeds/subscriptions.ts";
import { exposeToolName } from "../../core/tool-names.ts";
import { openTokens, sealTokens } from "./account-tokens.ts";
import { refreshChatGptTokens } from "../openai/chatgpt.ts";
import { RefreshRevokedError } from "./oauth-http.ts";
import { refreshAccountTokens } from "./refresh-lock.ts";
import { cancelLogin, completeLogin, pollLogin, startLogin } from "./logins.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
const MODELS: Record<"anthropic" | "openai" | "google", string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1-codex",
  google: "gemini-2.5-pro",
};
let h: SubscriptionHarness;
let db: Db;

beforeAll(async () => {
  h = await startSubscriptionHarness();
  db = h.database.db;
});

afterAll(async () => {
  await h.close();
});

async function newUser() {
  const user = await createTestUser(db, "Subscriber");
  return user.id;
}

async function connectClaude(userId: string): Promise<string> {
  const start = await startLogin(db, userId, "anthropic", h.env);
  if (start.kind !== "code-paste") throw new Error("expected a code-paste flow");
  const pasted = await authorizeInBrowser(start.authorizeUrl);
  return (await completeLogin(db, userId, start.loginId, pasted, h.env)).accountId;
}

async function connectGemini(userId: string): Promise<string> {
  const start = await startLogin(db, userId, "google", h.env);
  if (start.kind !== "code-paste") throw new Error("expected a code-paste flow");
  return (await completeLogin(db, userId, start.loginId, await authorizeInBrowser(start.authorizeUrl), h.env))
    .accountId;
}

/** Lets the next device poll go out now (as if the interval had passed). */
const makePollDue = (loginId: string) =>
  db.providerLogin.update({ where: { id: loginId }, data: { nextPollAt: new Date(0) } });

async function connectChatGpt(userId: string): Promise<string> {
  const start = await startLogin(db, userId, "openai", h.env);
  if (start.kind !== "device-code") throw new Error("expected the device flow");
  expect(h.oauth.approveDevice(start.userCode)).toBe(true);
  const result = await pollLogin(db, userId, start.loginId, h.env);
  if (result.status !== "connected") throw new Error("expected the sign-in to finish");
  return result.accountId;
}

async function runToolTurn(
  userId: string,
  accountId: string,
  provider: ProviderId & keyof typeof MODELS,
  text = "What time is it in Paris?",
) {
  const session = await db.chatSession.create({ data: { ownerId: userId, title: "Sub chat" } });
  const fakeId = provider;
  h.fake.script(fakeId, { steps: [{ type: "tool-call", name: TIME_TOOL, args: { timezone: "Europe/Paris" } }] });
  h.fake.script(fakeId, { steps: [{ type: "text", text: "It is late in Paris." }] });
  const { turnId } = await h.manager.startTurn(userId, session.id, text, {
    provider,
    model: MODELS[provider],
    accountId,
  });
  return { turn: await waitForTurnEnd(db, turnId), sessionId: session.id };
}

async function expectToolTurn(userId: string, accountId: string, provider: "anthropic" | "openai" | "google") {
  h.fake.clear();
  const { turn, sessionId } = await runToolTurn(userId, accountId, provider);
  expect(turn.error).toBeNull();
  expect(turn.status).toBe("completed");
  const messages = await sessionMessages(db, sessionId);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  expect(messageText(messages[3]!)).toBe("It is late in Paris.");
  const wire = h.fake.requests(provider);
  expect(wire.map((r) => r.status)).toEqual([200, 200]);
  expect(JSON.stringify(wire[1]!.body)).toContain("Europe/Paris");
  return wire;
}

describe("Claude Pro / Max", () => {
  it("signs in with the pasted code#state and runs a tool turn shaped like Claude Code", async () => {
    const userId = await newUser();
    const accountId = await connectClaude(userId);
    const account = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account).toMatchObject({ kind: "subscription", provider: "anthropic", identity: USERS.anthropic.email });
    expect(account.secrets).not.toContain("anthropic-rt-");
    expect(account.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);

    const wire = await expectToolTurn(userId, accountId, "anthropic");
    expect(wire[0]!.path).toBe("/anthropic/v1/messages?beta=true");
    expect(wire[0]!.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify((wire[0]!.body as { system: unknown }).system)).toContain("Patchbay's test assistant");
  });

  it("refuses a pasted code whose state belongs to another sign-in", async () => {
    const userId = await newUser();
    const first = await startLogin(db, userId, "anthropic", h.env);
    const second = await startLogin(db, userId, "anthropic", h.env);
    if (first.kind !== "code-paste" || second.kind !== "code-paste") throw new Error("code-paste expected");
    const pasted = await authorizeInBrowser(first.authorizeUrl);
    await expect(completeLogin(db, userId, second.loginId, pasted, h.env)).rejects.toThrow(/another sign-in/);
    await expect(completeLogin(db, userId, first.loginId, pasted.split("#")[0]!, h.env)).rejects.toThrow(/after #/);
  });

  it("is refused when the administrator did not switch the flow on", async () => {
    const userId = await newUser();
    const off = { ...h.env, PROVIDER_SUBSCRIPTIONS: ["openai" as const] };
    await expect(startLogin(db, userId, "anthropic", off)).rejects.toThrow(/switched off/);
  });
});

describe("ChatGPT plan", () => {
  it("waits while the device code is not approved, then signs in and reads the account claims", async () => {
    const userId = await newUser();
    const start = await startLogin(db, userId, "openai", h.env);
    if (start.kind !== "device-code") throw new Error("device flow expected");
    expect(start.verificationUrl).toBe(`${h.oauth.url}/openai/codex/device`);
    expect(await pollLogin(db, userId, start.loginId, h.env)).toEqual({ status: "pending", intervalMs: 1000 });
    const calls = h.oauth.state.log.length;
    expect(await pollLogin(db, userId, start.loginId, h.env)).toMatchObject({ status: "pending" }); // too soon: not sent
    expect(h.oauth.state.log.length).toBe(calls);

    h.oauth.approveDevice(start.userCode);
    await makePollDue(start.loginId);
    const done = await pollLogin(db, userId, start.loginId, h.env);
    if (done.status !== "connected") throw new Error("expected connected");
    const account = await db.providerAccount.findUniqueOrThrow({ where: { id: done.accountId } });
    expect(account).toMatchObject({
      identity: USERS.openai.email,
      plan: "plus",
      metadata: { chatgptAccountId: "acct-e2e-0001" },
    });
    expect(await db.providerLogin.count({ where: { id: start.loginId } })).toBe(0);
  });

  it("backs off when the issuer says slow down, and reports an expired device code", async () => {
    const userId = await newUser();
    const start = await startLogin(db, userId, "openai", h.env);
    await pollLogin(db, userId, start.loginId, h.env);
    h.oauth.timings.minPollGapMs = 60_000;
    try {
      await makePollDue(start.loginId);
      expect(await pollLogin(db, userId, start.loginId, h.env)).toEqual({ status: "pending", intervalMs: 6000 });
      const row = await db.providerLogin.findUniqueOrThrow({ where: { id: start.loginId } });
      expect(row.nextPollAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    } finally {
      h.oauth.timings.minPollGapMs = 0;
    }

    h.oauth.timings.deviceTtlMs = 0;
    try {
      const expiring = await startLogin(db, userId, "openai", h.env);
      await expect(pollLogin(db, userId, expiring.loginId, h.env)).rejects.toThrow(/expired_token/);
    } finally {
      h.oauth.timings.deviceTtlMs = 900_000;
    }
    await db.providerLogin.update({ where: { id: start.loginId }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expect(pollLogin(db, userId, start.loginId, h.env)).rejects.toThrow(/expired/);
    const cancelled = await startLogin(db, userId, "openai", h.env);
    await cancelLogin(db, userId, cancelled.loginId);
    await expect(pollLogin(db, userId, cancelled.loginId, h.env)).rejects.toThrow(/not in progress/);
  });

  it("runs a tool turn through the Codex backend with its headers and body fields", async () => {
    const userId = await newUser();
    const accountId = await connectChatGpt(userId);
    const wire = await expectToolTurn(userId, accountId, "openai");
    expect(wire[0]!.path).toBe("/chatgpt/backend-api/codex/responses");
    expect(wire[0]!.headers["chatgpt-account-id"]).toBe("acct-e2e-0001");
    const stock = await readFile(path.join(CODEX_INSTRUCTIONS_DIR, "default.md"), "utf8");
    expect(wire[0]!.body).toMatchObject({ store: false, stream: true, instructions: stock });
    // Patchbay's own system prompt is the first developer message, never the instructions.
    expect((wire[0]!.body as { input: unknown[] }).input[0]).toEqual({
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "You are Patchbay's test assistant." }],
    });
  });
});

describe("Gemini via Code Assist", () => {
  it("signs in with the pasted code, onboards on first use and runs a tool turn in the envelope", async () => {
    const userId = await newUser();
    const accountId = await connectGemini(userId);
    expect(await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      identity: USERS.google.email,
      metadata: {},
    });
    const wire = await expectToolTurn(userId, accountId, "google");
    const account = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.metadata).toEqual({ project: "fake-companion-gemini-user", tier: "free-tier" });
    expect(account.plan).toBe("Gemini Code Assist for individuals");
    expect(wire[0]!.path).toBe("/code-assist/v1internal:streamGenerateContent?alt=sse");
    expect(wire[0]!.body).toMatchObject({ model: MODELS.google, project: "fake-companion-gemini-user" });
  });
});

describe("refresh", () => {
  const refreshCalls = (vendor: "anthropic" | "openai" | "google") =>
    h.oauth.tokenCalls(vendor).filter((call) => call.grant === "refresh_token");

  it("refreshes a token about to expire before the request, storing the rotated refresh token", async () => {
    const userId = await newUser();
    const accountId = await connectClaude(userId);
    const before = await openTokens((await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).secrets);
    await db.providerAccount.update({ where: { id: accountId }, data: { expiresAt: new Date(Date.now() + 10_000) } });
    const calls = refreshCalls("anthropic").length;
    await expectToolTurn(userId, accountId, "anthropic");
    expect(
      refreshCalls("anthropic")
        .slice(calls)
        .map((c) => c.outcome),
    ).toEqual(["ok"]);
    const after = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
    const tokens = await openTokens(after.secrets);
    expect(tokens.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it("refreshes once and retries when the provider says 401 mid-session", async () => {
    const userId = await newUser();
    const accountId = await connectChatGpt(userId);
    await expectToolTurn(userId, accountId, "openai");
    // The access token dies early (revoked, clock skew): the stored expiry still says it is valid.
    const row = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
    const stale = issueAccessToken("openai", -1_000);
    await db.providerAccount.update({
      where: { id: accountId },
      data: { secrets: await sealTokens({ ...(await openTokens(row.secrets)), accessToken: stale }) },
    });
    const calls = refreshCalls("openai").length;
    h.fake.clear();
    const { turn } = await runToolTurn(userId, accountId, "openai");
    expect(turn.status).toBe("completed");
    expect(h.fake.requests("openai").map((r) => r.status)).toEqual([401, 200, 200]);
    expect(refreshCalls("openai").length).toBe(calls + 1);
  });

  it("spends a rotating refresh token once however many callers race for it", async () => {
    const userId = await newUser();
    const accountId = await connectClaude(userId);
    const { accessToken } = await openTokens(
      (await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).secrets,
    );
    const calls = refreshCalls("anthropic").length;
    const { refreshAnthropicTokens } = await import("../anthropic/subscription.ts");
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        refreshAccountTokens(db, {
          accountId,
          flow: "anthropic",
          rejectedAccessToken: accessToken,
          refresh: (tokens) => refreshAnthropicTokens(h.env, tokens.refreshToken!),
        }),
      ),
    );
    expect(
      refreshCalls("anthropic")
        .slice(calls)
        .map((c) => c.outcome),
    ).toEqual(["ok"]);
    expect(new Set(results.map((r) => r.tokens.accessToken)).size).toBe(1);
    expect(results[0]!.tokens.accessToken).not.toBe(accessToken);
  });

  it("marks the account reconnect_needed when the refresh is refused for good, without retrying", async () => {
    const userId = await newUser();
    const accountId = await connectChatGpt(userId);
    h.oauth.revokeRefreshTokens("openai");
    await db.providerAccount.update({ where: { id: accountId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const calls = refreshCalls("openai").length;
    h.fake.clear();
    const { turn } = await runToolTurn(userId, accountId, "openai");
    expect(turn.status).toBe("failed");
    expect((turn.error as { message: string }).message).toMatch(
      /reconnect your ChatGPT account in Settings → Providers/,
    );
    const account = await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.status).toBe("reconnect_needed");
    expect(account.lastError).toMatch(/reconnect your ChatGPT account/);
    expect(
      refreshCalls("openai")
        .slice(calls)
        .map((c) => c.outcome),
    ).toEqual(["refresh_token_invalidated"]);

    const again = await runToolTurn(userId, accountId, "openai");
    expect(again.turn.status).toBe("failed");
    expect(refreshCalls("openai").length).toBe(calls + 1); // no second attempt
    expect(h.fake.requests("openai")).toHaveLength(0); // nothing reached the model

    // Signing in again as the same ChatGPT user revives this account rather than adding another.
    expect(await connectChatGpt(userId)).toBe(accountId);
    expect(await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      status: "active",
      lastError: null,
      metadata: { chatgptAccountId: "acct-e2e-0001" },
    });
    expect(await db.providerAccount.count({ where: { ownerId: userId } })).toBe(1);
    await expectToolTurn(userId, accountId, "openai");
  });

  it("classifies a reused refresh token as permanent", async () => {
    const userId = await newUser();
    const accountId = await connectChatGpt(userId);
    const { refreshToken } = await openTokens(
      (await db.providerAccount.findUniqueOrThrow({ where: { id: accountId } })).secrets,
    );
    await refreshChatGptTokens(h.env, refreshToken!);
    await expect(refreshChatGptTokens(h.env, refreshToken!)).rejects.toMatchObject({ code: "refresh_token_reused" });
    await expect(refreshChatGptTokens(h.env, "unknown")).rejects.toBeInstanceOf(RefreshRevokedError);
  });
});

describe("the fake subscription endpoints", () => {
  it("refuse a Claude subscription request that is not shaped like Claude Code", async () => {
    const token = issueAccessToken("anthropic", 60_000);
    const response = await fetch(`${h.fake.subscriptionUrls.anthropic}/messages?beta=true`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "oauth-2025-04-20,interleaved-thinking-2025-05-14",
        "user-agent": "claude-cli/2.1.2 (external, cli)",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model: "m",
        stream: true,
        system: [{ type: "text", text: "You are Patchbay." }],
        messages: [],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: expect.stringContaining("only authorized for use with Claude Code") as unknown,
      },
    });
  });

  const postToCodex = (body: Record<string, unknown>) => {
    const token = issueAccessToken("openai", 60_000, {
      "https://api.openai.com/auth": { chatgpt_account_id: "acct-x" },
    });
    return fetch(`${h.fake.subscriptionUrls.chatgpt}/responses`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "chatgpt-account-id": "acct-x",
        originator: "codex_cli_rs",
        "openai-beta": "responses=experimental",
        session_id: "s",
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ model: "m", stream: true, input: [], ...body }),
    });
  };

  it("refuse a Codex request that stores the conversation", async () => {
    const response = await postToCodex({ store: true, instructions: "x" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: "Store must be set to false" });
  });

  it("refuse Codex instructions that are not a stock Codex prompt, as the backend has", async () => {
    const response = await postToCodex({ store: false, instructions: "You are Patchbay's test assistant." });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: "Instructions are not valid" });
    const stock = await readFile(path.join(CODEX_INSTRUCTIONS_DIR, "gpt-5.1-codex-max.md"), "utf8");
    expect((await postToCodex({ store: false, instructions: stock })).status).toBe(200);
  });
});
