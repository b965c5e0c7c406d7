// Per-user limits on the operator's keys, end to end on the real Postgres and the fake provider:
// requests on a server key are recorded per user and model with their tokens; a user over the
// per-minute or per-day limit is refused with a 429 in words before anything is stored; a turn whose
// tool rounds run past the day's tokens stops with that message; a user's own key is not limited;
// deleting chats gives no allowance back; one user's use never counts against another's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFakeProvider } from "../../e2e/support/fake-provider/server.ts";
import { env } from "../env.ts";
import { addApiKeyAccount } from "../providers/accounts.ts";
import type { SessionManager } from "../session/manager.ts";
import { startListening, stopListening } from "../db/notifier.ts";
import { serverKeyUsage } from "../session/server-key-usage.ts";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import {
  createResolverManager,
  createUserWithSession,
  fakeBaseUrl,
  waitForTurnEnd,
} from "../../e2e/support/testbeds/engine.ts";
import { readUsage, type UsageLimits } from "./usage-limits.ts";

let database: TestDatabase;
let fake: Awaited<ReturnType<typeof startFakeProvider>>;
const managers: SessionManager[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeProvider({ defaultReply: "echo" });
  await startListening(database.url);
});

afterAll(async () => {
  await Promise.all(managers.map((manager) => manager.stop()));
  await stopListening();
  await fake.close();
  await database.drop();
});

function managerWith(limits: UsageLimits): SessionManager {
  const providerEnv = {
    ...env,
    ANTHROPIC_API_KEY: "server-key",
    ANTHROPIC_BASE_URL: fakeBaseUrl(fake, "anthropic"),
    ANTHROPIC_MODELS: ["claude-sonnet-4-5", "claude-haiku-4-5"],
  };
  const manager = createResolverManager(
    { db: database.db, env: providerEnv, serverKeyUsage: serverKeyUsage(database.db, limits) },
    { usageLimits: limits },
  );
  managers.push(manager);
  return manager;
}

const server = (model = "claude-sonnet-4-5") => ({ provider: "anthropic" as const, model, accountId: null });
const usage = (inputTokens: number, outputTokens: number, text = "ok") => ({
  steps: [{ type: "text" as const, text }],
  usage: { inputTokens, outputTokens },
});

describe("usage on the server's keys", () => {
  it("records each request per user and model with its tokens, and says what is left", async () => {
    const limits = { requestsPerMinute: null, tokensPerDay: 1_000 };
    const manager = managerWith(limits);
    const { userId, sessionId } = await createUserWithSession(database.db, "Counted");
    fake.script("anthropic", usage(100, 20), usage(30, 10));
    const first = await manager.startTurn(userId, sessionId, "one", server());
    expect((await waitForTurnEnd(database.db, first.turnId)).status).toBe("completed");
    const second = await manager.startTurn(userId, sessionId, "two", server("claude-haiku-4-5"));
    expect((await waitForTurnEnd(database.db, second.turnId)).status).toBe("completed");
    await expect.poll(async () => (await readUsage(database.db, userId, limits)).today.tokens).toBe(160);
    const summary = await readUsage(database.db, userId, limits);
    expect(summary.today.byModel).toEqual([
      { provider: "anthropic", model: "claude-sonnet-4-5", requests: 1, tokens: 120 },
      { provider: "anthropic", model: "claude-haiku-4-5", requests: 1, tokens: 40 },
    ]);
    expect(summary.tokensLeft).toBe(840);
    expect(summary.resetsAt.toISOString()).toMatch(/T00:00:00\.000Z$/);
  });

  it("records requests and their tokens when no limit is set, for the chat's owner, inside today's window", async () => {
    const limits = { requestsPerMinute: null, tokensPerDay: null };
    const manager = managerWith(limits);
    const { userId, sessionId } = await createUserWithSession(database.db, "Unlimited");
    fake.script("anthropic", usage(7, 5));
    const turn = await manager.startTurn(userId, sessionId, "free", server());
    expect((await waitForTurnEnd(database.db, turn.turnId)).status).toBe("completed");
    await expect.poll(async () => (await readUsage(database.db, userId, limits)).today.tokens).toBe(12);
    const [row] = await database.db.usageRequest.findMany({ where: { userId } });
    expect(row).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5", inputTokens: 7, outputTokens: 5 });
    expect(Math.abs(row!.startedAt.getTime() - Date.now())).toBeLessThan(60_000); // stored in UTC, as Prisma writes it
  });

  it("refuses a new request over the day's tokens with a 429 in words, and stores nothing", async () => {
    const limits = { requestsPerMinute: null, tokensPerDay: 100 };
    const manager = managerWith(limits);
    const { userId, sessionId } = await createUserWithSession(database.db, "Spender");
    fake.script("anthropic", usage(90, 20));
    const turn = await manager.startTurn(userId, sessionId, "expensive", server());
    expect((await waitForTurnEnd(database.db, turn.turnId)).status).toBe("completed");
    await expect.poll(async () => (await readUsage(database.db, userId, limits)).tokensLeft).toBe(0);
    const messagesBefore = await database.db.message.count({ where: { sessionId } });
    const refusal = manager.startTurn(userId, sessionId, "one more", server());
    await expect(refusal).rejects.toMatchObject({ code: "rate_limit:provider", status: 429 });
    await expect(refusal).rejects.toThrow(
      /^You have used today's 100 tokens on this server's keys\. The allowance starts again at 00:00 UTC \(in \d+ (min|h \d+ min)\); until then, pick a model from your own account \(Settings → Providers\)\.$/,
    );
    expect(await database.db.message.count({ where: { sessionId } })).toBe(messagesBefore);

    // Deleting the chat gives nothing back.
    await database.db.chatSession.delete({ where: { id: sessionId } });
    expect((await readUsage(database.db, userId, limits)).tokensLeft).toBe(0);

    // The user's own key is theirs: not limited, not counted.
    const own = await addApiKeyAccount(database.db, userId, { provider: "anthropic", apiKey: "sk-ant-own-00000001" });
    const fresh = await database.db.chatSession.create({ data: { ownerId: userId, title: "Own key" } });
    const ownTurn = await manager.startTurn(userId, fresh.id, "on my key", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      accountId: own.id,
    });
    expect((await waitForTurnEnd(database.db, ownTurn.turnId)).status).toBe("completed");
    expect((await readUsage(database.db, userId, limits)).today.requests).toBe(1);

    // Another user's allowance is untouched.
    const other = await createUserWithSession(database.db, "Bystander");
    expect((await readUsage(database.db, other.userId, limits)).tokensLeft).toBe(100);
    const otherTurn = await manager.startTurn(other.userId, other.sessionId, "hello", server());
    expect((await waitForTurnEnd(database.db, otherTurn.turnId)).status).toBe("completed");
  });

  it("stops a turn whose tool rounds use up the day's tokens, with the same words", async () => {
    const limits = { requestsPerMinute: null, tokensPerDay: 100 };
    const manager = managerWith(limits);
    const { userId, sessionId } = await createUserWithSession(database.db, "Looper");
    fake.script("anthropic", {
      steps: [{ type: "tool-call", name: "builtin_current_time", args: { timezone: "UTC" } }],
      usage: { inputTokens: 150, outputTokens: 5 },
    });
    const turn = await manager.startTurn(userId, sessionId, "what time is it", server());
    const ended = await waitForTurnEnd(database.db, turn.turnId);
    expect(ended.status).toBe("failed");
    expect((ended.error as { message: string }).message).toMatch(
      /^You have used today's 100 tokens on this server's keys\./,
    );
    expect((await readUsage(database.db, userId, limits)).today.requests).toBe(1); // the follow-up never went out
  });

  it("refuses more chat requests per minute than allowed, saying how long to wait", async () => {
    const limits = { requestsPerMinute: 2, tokensPerDay: null };
    const manager = managerWith(limits);
    const { userId, sessionId } = await createUserWithSession(database.db, "Hasty");
    for (const text of ["first", "second"]) {
      const turn = await manager.startTurn(userId, sessionId, text, server());
      expect((await waitForTurnEnd(database.db, turn.turnId)).status).toBe("completed");
    }
    expect((await readUsage(database.db, userId, limits)).requestsLeftThisMinute).toBe(0);
    await expect(manager.startTurn(userId, sessionId, "third", server())).rejects.toThrow(
      /^You have sent 2 requests to this server's models in the last minute, the most allowed per person\. Try again in ([1-9]|[1-5]\d|60) s\.$/,
    );
    const other = await createUserWithSession(database.db, "Patient");
    const allowed = await manager.startTurn(other.userId, other.sessionId, "first", server());
    expect((await waitForTurnEnd(database.db, allowed.turnId)).status).toBe("completed");
  });
});
