// Provider accounts on the real Postgres: keys sealed at rest and never in DTOs, owners kept apart,
// OpenAI-compatible endpoints read from a real HTTP `/models`, the SSRF guard, and real turns through
// a user's own key and endpoint against the fake provider (the request carries that user's key).
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { env } from "../env.ts";
import type { SessionManager } from "../session/manager.ts";
import { startListening, stopListening } from "../db/notifier.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import {
  createResolverManager,
  fakeBaseUrl,
  messageText,
  sessionMessages,
  waitForTurnEnd,
} from "../../e2e/support/testbeds/engine.ts";
import { startFakeProvider } from "../../e2e/support/fake-provider/server.ts";
import {
  addApiKeyAccount,
  addCompatibleAccount,
  listAccounts,
  markReconnectNeeded,
  openCredentials,
  refreshCompatibleModels,
  removeAccount,
  updateAccount,
} from "./accounts.ts";
import { listModelSources } from "./model-sources.ts";

let database: TestDatabase;
let fake: Awaited<ReturnType<typeof startFakeProvider>>;
let modelsServer: Server;
let modelsUrl: string;
const seenKeys: string[] = [];
let manager: SessionManager;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeProvider({ defaultReply: "echo" });
  modelsServer = createServer((req, res) => {
    if (req.url !== "/v1/models") return res.writeHead(404).end();
    if (req.headers.authorization === "Bearer wrong-key-123") return res.writeHead(401).end();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data: [{ id: "qwen2.5" }, { id: "llama3.2" }, { id: "llama3.2" }] }));
  });
  await new Promise<void>((resolve) => modelsServer.listen(0, "127.0.0.1", resolve));
  modelsUrl = `http://127.0.0.1:${(modelsServer.address() as AddressInfo).port}/v1`;
  await startListening(database.url);
  const recordingFetch: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    seenKeys.push(headers.get("x-api-key") ?? headers.get("authorization") ?? "");
    return fetch(input, init);
  };
  manager = createResolverManager({
    db: database.db,
    env: { ...env, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: fakeBaseUrl(fake, "anthropic") },
    fetch: recordingFetch,
  });
});

afterAll(async () => {
  await manager.stop();
  await stopListening();
  await fake.close();
  await new Promise((resolve) => modelsServer.close(resolve));
  await database.drop();
});

async function userWithChat(name: string) {
  const user = await createTestUser(database.db, name);
  const chat = await database.db.chatSession.create({ data: { ownerId: user.id, title: "New chat" } });
  return { userId: user.id, sessionId: chat.id };
}

describe("provider accounts", () => {
  it("seals an API key at rest and never returns it", async () => {
    const { userId } = await userWithChat("Key owner");
    const dto = await addApiKeyAccount(database.db, userId, { provider: "anthropic", apiKey: "sk-ant-secret-1234" });
    expect(JSON.stringify(dto)).not.toContain("sk-ant-secret-1234");
    expect(dto).toMatchObject({ provider: "anthropic", kind: "api_key", label: "Anthropic key", hasKey: true });
    expect(dto.models).toEqual(env.ANTHROPIC_MODELS);
    const row = await database.db.providerAccount.findUniqueOrThrow({ where: { id: dto.id } });
    expect(row.secrets).not.toContain("sk-ant-secret");
    expect(await openCredentials(row)).toEqual({ apiKey: "sk-ant-secret-1234" });
  });

  it("keeps one user's accounts away from another", async () => {
    const alice = await userWithChat("Alice accounts");
    const bob = await userWithChat("Bob accounts");
    const account = await addApiKeyAccount(database.db, alice.userId, { provider: "openai", apiKey: "sk-alice-0001" });
    expect(await listAccounts(database.db, bob.userId)).toEqual([]);
    await expect(updateAccount(database.db, bob.userId, account.id, { label: "mine" })).rejects.toMatchObject({
      code: "not_found:provider",
    });
    await expect(removeAccount(database.db, bob.userId, account.id)).rejects.toMatchObject({
      code: "not_found:provider",
    });
    await expect(
      manager.startTurn(bob.userId, bob.sessionId, "hi", {
        provider: "openai",
        model: "gpt-5.1",
        accountId: account.id,
      }),
    ).rejects.toMatchObject({ code: "not_found:provider" });
    const sources = await listModelSources(database.db, env, alice.userId);
    expect(sources.find((source) => source.accountId === account.id)).toMatchObject({ provider: "openai" });
    expect(JSON.stringify(sources)).not.toContain("sk-alice");
  });

  it("reads an OpenAI-compatible endpoint's models and refuses what it cannot use", async () => {
    const { userId } = await userWithChat("Endpoint owner");
    const dto = await addCompatibleAccount(database.db, userId, { label: "Ollama", baseUrl: `${modelsUrl}/` });
    expect(dto).toMatchObject({ kind: "compatible", baseUrl: modelsUrl, models: ["llama3.2", "qwen2.5"] });
    expect((await refreshCompatibleModels(database.db, userId, dto.id)).models).toEqual(["llama3.2", "qwen2.5"]);
    await expect(
      addCompatibleAccount(database.db, userId, { label: "Bad key", baseUrl: modelsUrl, apiKey: "wrong-key-123" }),
    ).rejects.toThrow(/refused the key \(HTTP 401\)/);
    await expect(
      addCompatibleAccount(database.db, userId, { label: "Down", baseUrl: "http://127.0.0.1:1/v1" }),
    ).rejects.toThrow(/Could not reach/);
    await expect(
      addCompatibleAccount(database.db, userId, { label: "LAN", baseUrl: modelsUrl }, { allowPrivateUrls: false }),
    ).rejects.toThrow(/private|loopback|local/i);
    expect((await listAccounts(database.db, userId)).map((account) => account.label)).toEqual(["Ollama"]);
  });

  it("refuses a model id that neither the chosen account nor the server offers, and stores nothing", async () => {
    const { userId, sessionId } = await userWithChat("Model chooser");
    const key = await addApiKeyAccount(database.db, userId, { provider: "anthropic", apiKey: "sk-ant-model-0001" });
    const requestsBefore = fake.requests("anthropic").length;
    await expect(
      manager.startTurn(userId, sessionId, "hi", {
        provider: "anthropic",
        model: "claude-expensive-9",
        accountId: key.id,
      }),
    ).rejects.toMatchObject({
      code: "bad_request:provider",
      message:
        'The model "claude-expensive-9" is not offered by your account "Anthropic key". Pick a model from the list for this chat.',
    });
    // This manager's server configuration has no Anthropic key: no server model at all.
    await expect(
      manager.startTurn(userId, sessionId, "hi", { provider: "anthropic", model: "claude-sonnet-4-5" }),
    ).rejects.toMatchObject({
      code: "bad_request:provider",
      message: 'The model "claude-sonnet-4-5" is not offered by this server. Pick a model from the list for this chat.',
    });
    await expect(
      manager.startTurn(userId, sessionId, "hi", { provider: "openai", model: "gpt-5.1", accountId: key.id }),
    ).rejects.toMatchObject({ code: "bad_request:provider", message: "That account belongs to another provider." });
    expect(await database.db.message.count({ where: { sessionId } })).toBe(0);
    expect(await database.db.turn.count({ where: { sessionId } })).toBe(0);
    expect(fake.requests("anthropic")).toHaveLength(requestsBefore);
    const ok = await manager.startTurn(userId, sessionId, "hi", {
      provider: "anthropic",
      model: "claude-haiku-4-5",
      accountId: key.id,
    });
    expect((await waitForTurnEnd(database.db, ok.turnId)).status).toBe("completed");
  });

  it("runs a turn on the user's own key and on their endpoint", async () => {
    const { userId, sessionId } = await userWithChat("Turn owner");
    const key = await addApiKeyAccount(database.db, userId, { provider: "anthropic", apiKey: "sk-ant-turn-5678" });
    seenKeys.length = 0;
    const first = await manager.startTurn(userId, sessionId, "hello via my key", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      accountId: key.id,
    });
    expect((await waitForTurnEnd(database.db, first.turnId)).status).toBe("completed");
    expect(seenKeys).toContain("sk-ant-turn-5678");
    const session = await database.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.providerAccountId).toBe(key.id);

    const endpoint = await addCompatibleAccount(database.db, userId, { label: "Fake compat", baseUrl: modelsUrl });
    await database.db.providerAccount.update({
      where: { id: endpoint.id },
      data: { baseUrl: fakeBaseUrl(fake, "openai-compatible") },
    });
    const second = await manager.startTurn(userId, sessionId, "now via my endpoint", {
      provider: "openai-compatible",
      model: "llama3.2",
      accountId: endpoint.id,
    });
    expect((await waitForTurnEnd(database.db, second.turnId)).status).toBe("completed");
    expect(fake.requests("compat").at(-1)?.body).toMatchObject({ model: "llama3.2" });
    const texts = (await sessionMessages(database.db, sessionId)).map(messageText);
    expect(texts.at(-1)).toContain("now via my endpoint");
  });

  it("fails a turn with a clear message when the account needs reconnecting", async () => {
    const { userId, sessionId } = await userWithChat("Reconnect owner");
    const key = await addApiKeyAccount(database.db, userId, { provider: "anthropic", apiKey: "sk-ant-stale-0000" });
    await markReconnectNeeded(database.db, key.id, "The refresh token was revoked.");
    const requestsBefore = fake.requests("anthropic").length;
    const { turnId } = await manager.startTurn(userId, sessionId, "hi", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      accountId: key.id,
    });
    const turn = await waitForTurnEnd(database.db, turnId);
    expect(turn.status).toBe("failed");
    expect((turn.error as { message: string }).message).toMatch(/Settings → Providers and reconnect/);
    expect(fake.requests("anthropic")).toHaveLength(requestsBefore);
    const messages = await sessionMessages(database.db, sessionId);
    expect(messageText(messages[0]!)).toBe("hi");
  });
});
