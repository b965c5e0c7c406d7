// A chat that switches accounts mid-conversation — an OpenAI API key to a ChatGPT subscription, a
// Gemini API key to Code Assist, one Anthropic key to another — keeps its history and tool results,
// and the new account's first request carries none of the old account's encrypted reasoning or
// signatures: the fake provider binds every signature it issues to the endpoint and account and
// refuses foreign ones with the real APIs' 400s, so the turn would fail if any slipped through.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Db } from "../../db/client.ts";
import type { ProviderId } from "../../core/canonical.ts";
import { createTestUser } from "../../../e2e/support/testbeds/database.ts";
import { messageText, sessionMessages, waitForTurnEnd } from "../../../e2e/support/testbeds/engine.ts";
import {
  connectByCodePaste,
  connectChatGpt,
  startSubscriptionHarness,
  type SubscriptionHarness,
} from "../../../e2e/support/testbeds/subscriptions.ts";
import { addApiKeyAccount } from "../accounts.ts";
import { exposeToolName } from "../../core/tool-names.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
let h: SubscriptionHarness;
let db: Db;

beforeAll(async () => {
  h = await startSubscriptionHarness();
  db = h.database.db;
});

afterAll(async () => {
  await h.close();
});

const apiKey = async (userId: string, provider: "anthropic" | "openai" | "google", key: string) =>
  (await addApiKeyAccount(db, userId, { provider, apiKey: key })).id;

type Case = {
  provider: ProviderId & ("anthropic" | "openai" | "google");
  model: string;
  from: (userId: string) => Promise<string>;
  to: (userId: string) => Promise<string>;
  endpoints: [string, string];
};

const CASES: Record<string, Case> = {
  "an OpenAI API key to a ChatGPT subscription": {
    provider: "openai",
    model: "gpt-5.1-codex",
    from: (userId) => apiKey(userId, "openai", "sk-openai-key-one-000000"),
    to: (userId) => connectChatGpt(h, userId),
    endpoints: ["openai-responses", "chatgpt-codex"],
  },
  "a Gemini API key to Code Assist": {
    provider: "google",
    model: "gemini-2.5-pro",
    from: (userId) => apiKey(userId, "google", "AIza-gemini-key-one-0000"),
    to: (userId) => connectByCodePaste(h, userId, "google"),
    endpoints: ["gemini-api", "code-assist"],
  },
  "one Anthropic API key to another": {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    from: (userId) => apiKey(userId, "anthropic", "sk-ant-key-one-000000000"),
    to: (userId) => apiKey(userId, "anthropic", "sk-ant-key-two-000000000"),
    endpoints: ["anthropic-messages", "anthropic-messages"],
  },
};

describe("switching accounts mid-chat", () => {
  it.each(Object.entries(CASES))("from %s sends none of the first account's signatures", async (_name, c) => {
    const user = await createTestUser(db, "Switcher");
    const [first, second] = [await c.from(user.id), await c.to(user.id)];
    const session = await db.chatSession.create({ data: { ownerId: user.id, title: "Switch" } });
    const choose = (accountId: string) => ({ provider: c.provider, model: c.model, accountId });
    h.fake.clear();
    h.fake.script(c.provider, {
      steps: [
        { type: "reasoning", text: "The user wants the time." },
        { type: "tool-call", name: TIME_TOOL, args: { timezone: "UTC" } },
      ],
    });
    h.fake.script(c.provider, { steps: [{ type: "text", text: "It is noon." }] });
    const one = await h.manager.startTurn(user.id, session.id, "What time is it?", choose(first));
    expect(await waitForTurnEnd(db, one.turnId)).toMatchObject({ status: "completed", error: null });
    const stored = (await sessionMessages(db, session.id))[1]!.parts as { providerData?: { origin?: unknown } }[];
    const origins = stored.map((part) => part.providerData?.origin).filter(Boolean);
    expect(origins.length).toBeGreaterThan(0);
    for (const origin of origins) expect(origin).toEqual({ account: first, endpoint: c.endpoints[0] });
    // The first account's follow-up carried its own signatures back, and the fake accepted them.
    expect(JSON.stringify(h.fake.requests(c.provider)[1]!.body)).toContain(".scope-");

    const before = h.fake.requests(c.provider).length;
    h.fake.script(c.provider, { steps: [{ type: "text", text: "Still noon." }] });
    const two = await h.manager.startTurn(user.id, session.id, "And now?", choose(second));
    const turn = await waitForTurnEnd(db, two.turnId);
    const sent = h.fake.requests(c.provider).slice(before);
    expect(sent.map((r) => [r.status, r.error])).toEqual([[200, undefined]]);
    expect(turn).toMatchObject({ status: "completed", error: null });
    const body = JSON.stringify(sent[0]!.body);
    expect(body).not.toContain(".scope-");
    expect(body).toContain("What time is it?");
    expect(body).toContain("UTC"); // the tool call and its result are still in the history
    expect(messageText((await sessionMessages(db, session.id)).at(-1)!)).toBe("Still noon.");
  });
});
