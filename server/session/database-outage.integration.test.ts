// A database outage in the middle of an answer, against the real Postgres through a TCP proxy this
// test owns and cuts (the shared server on 5432 is never touched): every connection through the
// proxy is dropped and new ones are refused for 10 s, while a turn keeps streaming deltas. Nothing
// the provider sent is lost — the deltas wait out the outage and commit in order once the database
// answers again — and an API call during the outage is a 503 "database unavailable", not a 401 or
// a 500. Prints the figures the README's Reliability section quotes.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { appRouter, createCaller } from "../api/root.ts";
import { createDbClient, type Db } from "../db/client.ts";
import { CuttableProxy } from "../../e2e/support/cuttable-proxy.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { publishMessageDeltas } from "./delta-queue.ts";
import { recordRequestStart } from "./request-start.ts";
import { newRowId, startTurnRows } from "./turn-sql.ts";

const OUTAGE_MS = 10_000;
const CHUNKS = 100;

let testDb: TestDatabase;
let proxy: CuttableProxy;
let proxied: Db;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const url = new URL(testDb.url);
  proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
  await proxy.listen();
  proxied = createDbClient(Object.assign(new URL(testDb.url), { host: `127.0.0.1:${proxy.port}` }).toString(), {
    max: 4,
  });
});

afterAll(async () => {
  await proxy.cut();
  await proxied.$disconnect().catch(() => undefined);
  await testDb.drop();
});

describe("a 10 s database outage in the middle of an answer", () => {
  it("loses no delta: they wait out the outage and commit in order; API calls meanwhile are 503s", async () => {
    const user = await createTestUser(testDb.db, "Outage");
    const session = await testDb.db.chatSession.create({ data: { ownerId: user.id, title: "New chat" } });
    const turnId = newRowId();
    await startTurnRows(testDb.db, {
      id: turnId,
      sessionId: session.id,
      ownerId: user.id,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      accountId: null,
      text: "count to a hundred",
      title: "count to a hundred",
      leaseOwner: "outage-test",
      leaseExpiresAt: new Date(Date.now() + 120_000),
    });
    const messageId = newRowId();
    await recordRequestStart(testDb.db, {
      requestId: newRowId(),
      messageId,
      turnId,
      sessionId: session.id,
      index: 0,
      toolsRevision: 1,
      toolNames: [],
    });

    const sent: Promise<void>[] = [];
    let text = "";
    let cutAt = 0;
    let restoredAt = 0;
    const apiDuringOutage: { status: number; body: string }[] = [];
    for (let chunk = 0; chunk < CHUNKS; chunk++) {
      text += `c${chunk} `;
      sent.push(
        publishMessageDeltas(proxied, {
          sessionId: session.id,
          turnId,
          messageId,
          parts: [{ type: "text", text }],
          events: [{ type: "text.delta", data: { messageId, partIndex: 0, text: `c${chunk} ` } }],
        }),
      );
      if (chunk === 20) {
        await Promise.all(sent); // the first 21 are in before the cut
        await proxy.cut();
        cutAt = Date.now();
      }
      if (chunk === 50) {
        // Mid-outage, the API: a caller sees SERVICE_UNAVAILABLE, a browser HTTP 503 in words.
        const caller = createCaller({ db: proxied, user: { id: user.id, name: null, email: null, image: null } });
        await expect(caller.session.list()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
        const response = await fetchRequestHandler({
          endpoint: "/api/trpc",
          req: new Request("http://localhost/api/trpc/session.list"),
          router: appRouter,
          createContext: () => ({ db: proxied, user: { id: user.id, name: null, email: null, image: null } }),
        });
        apiDuringOutage.push({ status: response.status, body: await response.text() });
      }
      if (cutAt && !restoredAt && Date.now() - cutAt >= OUTAGE_MS) {
        await proxy.listen();
        restoredAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, cutAt && !restoredAt ? OUTAGE_MS / 60 : 20));
    }
    if (!restoredAt) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, cutAt + OUTAGE_MS - Date.now())));
      await proxy.listen();
      restoredAt = Date.now();
    }
    await Promise.all(sent);
    const caughtUpMs = Date.now() - restoredAt;

    const message = await testDb.db.message.findUniqueOrThrow({ where: { id: messageId } });
    expect(message.parts).toEqual([{ type: "text", text }]);
    const deltas = await testDb.db.sessionEvent.findMany({
      where: { sessionId: session.id, type: "text.delta" },
      orderBy: { id: "asc" },
    });
    expect(deltas.map((event) => (event.data as { text: string }).text)).toEqual(
      Array.from({ length: CHUNKS }, (_, chunk) => `c${chunk} `),
    );
    expect(apiDuringOutage).toHaveLength(1);
    expect(apiDuringOutage[0]!.status).toBe(503);
    const body = JSON.parse(apiDuringOutage[0]!.body) as {
      error: { json: { message: string; data: { appCode: string } } };
    };
    expect(body.error.json.data.appCode).toBe("unavailable:database");
    expect(body.error.json.message).toBe(
      "The database is unavailable right now; Patchbay retries by itself, try again in a moment.",
    );
    console.log(
      `[outage] ${CHUNKS} deltas, database cut for ${restoredAt - cutAt} ms after delta 21: ` +
        `${deltas.length}/${CHUNKS} stored in order, all committed ${caughtUpMs} ms after it came back; API meanwhile: ${apiDuringOutage[0]!.status}`,
    );
  }, 90_000);
});
