// A user's OpenAI-compatible endpoint in a multi-user setup (private addresses not allowed): at save,
// at a `/models` refresh and at chat time, loopback, LAN and link-local targets are refused with
// one fixed sentence, directly, through a redirect and through a name that re-resolves (DNS
// rebinding). A listener on the private target counts connections and must see none. 127.0.0.2
// stands in for a public address (the guard's address rule is swapped to allow exactly it).
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";

import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { env } from "../env.ts";
import type { LookupAll } from "../core/url-guard.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { addCompatibleAccount, refreshCompatibleModels } from "./accounts.ts";
import { ENDPOINT_REFUSAL } from "./endpoint-fetch.ts";
import { createModelResolver } from "./model-resolver.ts";
import { safeErrorMessage } from "./safe-error.ts";

const PUBLIC_STAND_IN = "127.0.0.2";
const isAllowedAddress = (address: string) => address === PUBLIC_STAND_IN;

let database: TestDatabase;
/** The private target: answers like an endpoint would, and counts every connection it gets. */
let target: Server;
let targetPort: number;
let targetConnections = 0;
/** The "public" endpoint: lists models, or redirects to the private target. */
let outside: Server;
let outsidePort: number;
let outsideRequests = 0;

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  database = await createTestDatabase();
  target = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ id: "internal-model" }] }));
  });
  target.on("connection", () => (targetConnections += 1));
  targetPort = await listen(target, "127.0.0.1");
  outside = createServer((req, res) => {
    outsideRequests += 1;
    if (req.url?.startsWith("/redirect/")) {
      res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/v1/models` }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ id: "public-model" }] }));
  });
  outsidePort = await listen(outside, PUBLIC_STAND_IN);
});

afterAll(async () => {
  await new Promise((resolve) => target.close(resolve));
  await new Promise((resolve) => outside.close(resolve));
  await database.drop();
});

const guarded = { allowPrivateUrls: false, isAllowedAddress };

/** A resolver that answers `public.test` with the stand-in first, then with whatever `next` holds. */
function rebindingLookup(answers: string[][]): LookupAll {
  let call = 0;
  return (hostname) => {
    const addresses = hostname === "endpoint.test" ? answers[Math.min(call++, answers.length - 1)]! : [];
    return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
  };
}

async function userId(): Promise<string> {
  return (await createTestUser(database.db, "Endpoint user")).id;
}

describe("a user's endpoint when private addresses are not allowed", () => {
  it("is refused at save for loopback, localhost, LAN and link-local, in the same words, with no connection", async () => {
    const owner = await userId();
    const before = targetConnections;
    const urls = [
      `http://127.0.0.1:${targetPort}/v1`,
      `http://localhost:${targetPort}/v1`,
      `http://[::1]:${targetPort}/v1`,
      `http://[::ffff:127.0.0.1]:${targetPort}/v1`,
      "http://127.0.0.1:1/v1", // nothing listens there: the answer must not differ
      "http://192.168.1.20:11434/v1",
      "http://10.0.0.7/v1",
      "http://169.254.169.254/latest",
    ];
    for (const baseUrl of urls) {
      await expect(
        addCompatibleAccount(database.db, owner, { label: "Inside", baseUrl }, guarded),
      ).rejects.toMatchObject({ code: "bad_request:provider", message: ENDPOINT_REFUSAL });
    }
    expect(ENDPOINT_REFUSAL).toContain("PROVIDER_ALLOW_PRIVATE_URLS");
    expect(ENDPOINT_REFUSAL).not.toContain("MCP_ALLOW_PRIVATE_URLS");
    expect(targetConnections).toBe(before);
    expect(await database.db.providerAccount.count({ where: { ownerId: owner } })).toBe(0);
  });

  it("accepts a public endpoint, and refuses one that redirects to a private address", async () => {
    const owner = await userId();
    const ok = await addCompatibleAccount(
      database.db,
      owner,
      { label: "Public", baseUrl: `http://${PUBLIC_STAND_IN}:${outsidePort}/v1` },
      guarded,
    );
    expect(ok.models).toEqual(["public-model"]);
    const before = { target: targetConnections, outside: outsideRequests };
    await expect(
      addCompatibleAccount(
        database.db,
        owner,
        { label: "Redirecting", baseUrl: `http://${PUBLIC_STAND_IN}:${outsidePort}/redirect/v1` },
        guarded,
      ),
    ).rejects.toMatchObject({ message: ENDPOINT_REFUSAL });
    expect(outsideRequests).toBe(before.outside + 1); // the redirect was read, its target never reached
    expect(targetConnections).toBe(before.target);
  });

  it("refuses a name that re-resolves to a private address (DNS rebinding) at the /models refresh", async () => {
    const owner = await userId();
    const lookup = rebindingLookup([[PUBLIC_STAND_IN], ["127.0.0.1"]]);
    const saved = await addCompatibleAccount(
      database.db,
      owner,
      { label: "Rebinding", baseUrl: `http://endpoint.test:${outsidePort}/v1` },
      { ...guarded, lookup },
    );
    expect(saved.models).toEqual(["public-model"]);
    // Now the same name answers with the private target's address, on the target's port.
    await database.db.providerAccount.update({
      where: { id: saved.id },
      data: { baseUrl: `http://endpoint.test:${targetPort}/v1` },
    });
    const before = targetConnections;
    await expect(refreshCompatibleModels(database.db, owner, saved.id, { ...guarded, lookup })).rejects.toMatchObject({
      message: ENDPOINT_REFUSAL,
    });
    // A name with one private answer among public ones is refused too.
    const mixed = rebindingLookup([[PUBLIC_STAND_IN, "127.0.0.1"]]);
    await expect(
      refreshCompatibleModels(database.db, owner, saved.id, { ...guarded, lookup: mixed }),
    ).rejects.toMatchObject({ message: ENDPOINT_REFUSAL });
    expect(targetConnections).toBe(before);
  });

  it("refuses the chat request of an endpoint saved while private addresses were allowed", async () => {
    const owner = await userId();
    const saved = await addCompatibleAccount(
      database.db,
      owner,
      { label: "Saved earlier", baseUrl: `http://127.0.0.1:${targetPort}/v1` },
      { allowPrivateUrls: true },
    );
    expect(saved.models).toEqual(["internal-model"]);
    const session = await database.db.chatSession.create({ data: { ownerId: owner, title: "Chat" } });
    const resolve = createModelResolver({
      db: database.db,
      env: { ...env, PROVIDER_ALLOW_PRIVATE_URLS: false },
      endpointGuard: { isAllowedAddress },
    });
    const before = targetConnections;
    const { model } = await resolve({
      provider: "openai-compatible",
      model: "internal-model",
      accountId: saved.id,
      sessionId: session.id,
    });
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "hello", onError: ({ error }) => void errors.push(error) });
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors.length).toBeGreaterThan(0);
    expect(safeErrorMessage(errors[0])).toBe(ENDPOINT_REFUSAL);
    expect(targetConnections).toBe(before);
    // The same endpoint reached through a name that now resolves to loopback, or a redirect, at chat time.
    const chatThrough = async (baseUrl: string, lookup?: LookupAll) => {
      await database.db.providerAccount.update({ where: { id: saved.id }, data: { baseUrl } });
      const viaGuard = createModelResolver({
        db: database.db,
        env: { ...env, PROVIDER_ALLOW_PRIVATE_URLS: false },
        endpointGuard: { isAllowedAddress, lookup },
      });
      const target = { provider: "openai-compatible" as const, model: "internal-model", accountId: saved.id };
      const resolved = await viaGuard({ ...target, sessionId: session.id });
      const failures: unknown[] = [];
      const stream = streamText({
        model: resolved.model,
        prompt: "hello",
        onError: ({ error }) => void failures.push(error),
      });
      for await (const part of stream.fullStream) if (part.type === "error") failures.push(part.error);
      return safeErrorMessage(failures[0]);
    };
    expect(await chatThrough(`http://endpoint.test:${targetPort}/v1`, rebindingLookup([["127.0.0.1"]]))).toBe(
      ENDPOINT_REFUSAL,
    );
    const outsideBefore = outsideRequests;
    expect(await chatThrough(`http://${PUBLIC_STAND_IN}:${outsidePort}/redirect/v1`)).toBe(ENDPOINT_REFUSAL);
    expect(outsideRequests).toBeGreaterThan(outsideBefore); // the redirect was followed up to the refused hop
    expect(targetConnections).toBe(before);
    await database.db.providerAccount.update({
      where: { id: saved.id },
      data: { baseUrl: `http://127.0.0.1:${targetPort}/v1` },
    });

    // The same refresh through the guard is refused as well.
    await expect(refreshCompatibleModels(database.db, owner, saved.id, guarded)).rejects.toMatchObject({
      message: ENDPOINT_REFUSAL,
    });
    expect(targetConnections).toBe(before);
  });
});
