// The hot-path SQL (event-log.ts, turn-sql.ts) on the real Postgres and on the embedded one
// (PGlite over the wire protocol): a turn's statements write the rows and the events announcing them
// together, in UTC whatever the server's time zone, and a follower receives every event exactly once
// in id order, whether this process appended it (delivered in-process) or another instance did
// (NOTIFY, then a read), interleaved.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createDbClient, poolOf, type Db } from "../db/client.ts";
import { startEmbeddedPostgres } from "../db/embedded-postgres.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createTestDatabase, createTestUser } from "../../e2e/support/testbeds/database.ts";
import { publishMessageDeltas } from "./delta-queue.ts";
import { appendEvent, sessionEventsPayload } from "./event-log.ts";
import { readEventsAfter } from "./event-reads.ts";
import { type SessionEventDto } from "./event-types.ts";
import { followEvents } from "./event-feed.ts";
import { CHANNELS, notify, startListening, stopListening } from "../db/notifier.ts";
import { recordRequestStart } from "./request-start.ts";
import { newRowId, recordRequestEnd, startTurnRows } from "./turn-sql.ts";

async function waitUntil(isDone: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!isDone()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Backend = { url: string; db: Db; close(): Promise<void> };

/** The test server, its sessions in New York time: UTC handling must not depend on the server's zone. */
async function realPostgres(): Promise<Backend> {
  const database = await createTestDatabase();
  await database.db.$disconnect();
  const url = `${database.url}?options=${encodeURIComponent("-c TimeZone=America/New_York")}`;
  const db = createDbClient(url);
  const zone = await poolOf(db).query<{ zone: string }>(`SELECT current_setting('TimeZone') AS zone`);
  expect(zone.rows[0]!.zone).toBe("America/New_York");
  return { url, db, close: async () => (await db.$disconnect(), await database.drop()) };
}

async function embeddedPostgres(): Promise<Backend> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "patchbay-event-store-"));
  const embedded = await startEmbeddedPostgres(dataDir);
  await applyMigrations(embedded.url);
  const db = createDbClient(embedded.url, { max: 4 });
  return {
    url: embedded.url,
    db,
    close: async () => {
      await db.$disconnect();
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ["Postgres", realPostgres, true],
  ["embedded Postgres", embeddedPostgres, false],
])("hot-path SQL on %s", (_name, open, hasNotify) => {
  let backend: Backend;
  let ownerId: string;

  beforeAll(async () => {
    backend = await open();
    await startListening(backend.url);
    ownerId = (await createTestUser(backend.db, "Writer")).id;
  });

  afterAll(async () => {
    await stopListening();
    await backend?.close();
  });

  const newSession = async () => (await backend.db.chatSession.create({ data: { ownerId, title: "New chat" } })).id;

  it("writes a turn's rows with their events, in UTC, and claims a session once", async () => {
    const { db } = backend;
    const sessionId = await newSession();
    const before = Date.now();
    const turn = {
      id: `turn-${sessionId}`,
      sessionId,
      ownerId,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      accountId: null,
      text: "Hello there",
      title: "Hello there",
      leaseOwner: "instance-a",
      leaseExpiresAt: new Date(before + 15_000),
    };
    const started = await startTurnRows(db, turn);
    expect(started).toMatchObject({ title: "Hello there", historySeq: 1, systemPrompt: null });
    expect(await startTurnRows(db, { ...turn, id: `other-${sessionId}` })).toBeNull();
    expect(await startTurnRows(db, { ...turn, id: `stranger-${sessionId}`, ownerId: "someone-else" })).toBeNull();

    const [requestId, messageId] = [newRowId(), newRowId()];
    await recordRequestStart(db, {
      requestId,
      messageId,
      turnId: turn.id,
      sessionId,
      index: 0,
      toolsRevision: 3,
      toolNames: ["builtin.clock"],
    });
    const firstTokenAt = new Date();
    const parts = [{ type: "text", text: "Hi" }];
    const delta = { messageId, partIndex: 0, text: "Hi" };
    await publishMessageDeltas(db, {
      sessionId,
      turnId: turn.id,
      messageId,
      parts,
      events: [{ type: "text.delta", data: delta }],
    });
    const final = [{ type: "text", text: "Hi!", providerData: { signature: "s" } }];
    await recordRequestEnd(db, {
      requestId,
      turnId: turn.id,
      sessionId,
      isFirstRequest: true,
      firstTokenAt,
      finishReason: "stop",
      usage: { inputTokens: 5, outputTokens: 2 },
      durationMs: 321,
      message: { id: messageId, parts: final, events: [{ type: "message.updated", data: { messageId } }] },
    });

    const session = await db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({ activeTurnId: turn.id, title: "Hello there", model: "claude-sonnet-4-5" });
    const messages = await db.message.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(messages.map((m) => [m.seq, m.role, m.turnId, m.parts])).toEqual([
      [1, "user", null, [{ type: "text", text: "Hello there" }]],
      [2, "assistant", turn.id, final],
    ]);
    const stored = await db.turn.findUniqueOrThrow({ where: { id: turn.id }, include: { requests: true } });
    expect(stored).toMatchObject({
      historySeq: 1,
      stepCount: 1,
      leaseOwner: "instance-a",
      userMessageId: messages[0]!.id,
    });
    expect(stored.firstTokenAt?.getTime()).toBe(firstTokenAt.getTime());
    expect(stored.leaseExpiresAt?.getTime()).toBe(turn.leaseExpiresAt.getTime());
    expect(stored.requests).toMatchObject([
      {
        id: requestId,
        toolsRevision: 3,
        toolNames: ["builtin.clock"],
        finishReason: "stop",
        inputTokens: 5,
        outputTokens: 2,
        durationMs: 321,
      },
    ]);

    const events = await db.sessionEvent.findMany({ where: { sessionId }, orderBy: { id: "asc" } });
    expect(events.map((event) => event.type)).toEqual([
      "user.message",
      "turn.started",
      "request.started",
      "message.created",
      "text.delta",
      "message.updated",
    ]);
    expect(events[0]!.data).toEqual({ messageId: messages[0]!.id, text: "Hello there", title: "Hello there" });
    for (const time of [...events.map((event) => event.createdAt), messages[1]!.updatedAt, stored.startedAt])
      expect(Math.abs(time.getTime() - before)).toBeLessThan(60_000);
  });

  it("publishes the deltas of many sessions together: each message ends with its parts, each follower gets its events once", async () => {
    const { db } = backend;
    const sessions = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const sessionId = await newSession();
        const message = await db.message.create({ data: { sessionId, seq: 1, role: "assistant", parts: [] } });
        return { sessionId, messageId: message.id };
      }),
    );
    const controller = new AbortController();
    const received = new Map(sessions.map(({ sessionId }) => [sessionId, [] as SessionEventDto[]]));
    const following = sessions.map(async ({ sessionId }) => {
      for await (const event of followEvents(db, sessionId, null, controller.signal))
        received.get(sessionId)!.push(event);
    });
    try {
      // Not awaited one by one: the first goes out alone, the rest queue behind it and share
      // statements, two batches of one message merging while queued.
      await Promise.all(
        [0, 1, 2].flatMap((n) =>
          sessions.map(({ sessionId, messageId }) => {
            const sent = publishMessageDeltas(db, {
              sessionId,
              turnId: null,
              messageId,
              parts: [{ type: "text", text: `${sessionId}:${n}` }],
              events: [{ type: "text.delta", data: { messageId, partIndex: 0, text: String(n) } }],
            });
            return sent;
          }),
        ),
      );
      await waitUntil(() => [...received.values()].every((events) => events.length === 3));
      for (const { sessionId, messageId } of sessions) {
        const message = await db.message.findUniqueOrThrow({ where: { id: messageId } });
        expect(message.parts).toEqual([{ type: "text", text: `${sessionId}:2` }]);
        const log = await readEventsAfter(db, sessionId, null);
        expect(log.map((event) => event.data.text)).toEqual(["0", "1", "2"]);
        expect(received.get(sessionId)!.map((event) => event.id)).toEqual(log.map((event) => event.id));
      }
    } finally {
      controller.abort();
      await Promise.all(following);
    }
  });

  it("a follower gets every event once, in order, from this process and from another instance", async () => {
    const { db } = backend;
    const sessionId = await newSession();
    const controller = new AbortController();
    const received: SessionEventDto[] = [];
    const following = (async () => {
      for await (const event of followEvents(db, sessionId, null, controller.signal)) received.push(event);
    })();
    const other = new pg.Client({ connectionString: backend.url });
    await other.connect();
    const heardElsewhere: string[] = [];
    other.on("notification", (message) => heardElsewhere.push(message.payload ?? ""));
    await other.query("LISTEN patchbay_session_events");
    // Another instance: a plain insert plus a NOTIFY with its own process tag.
    const appendElsewhere = (n: number) =>
      other.query(
        `WITH e AS (INSERT INTO "SessionEvent" ("sessionId", "type", "data") VALUES ($1, 'tools.changed', $2::jsonb) RETURNING id)
        SELECT pg_notify('patchbay_session_events', 'elsewhere|' || $1) FROM e`,
        [sessionId, JSON.stringify({ n })],
      );
    try {
      let n = 0;
      for (let round = 0; round < 6; round++) {
        await appendEvent(db, { sessionId, type: "tools.changed", data: { n: n++ } });
        if (round % 2 === 0) await appendElsewhere(n++);
        await appendEvent(db, { sessionId, type: "tools.changed", data: { n: n++ } });
      }
      const total = n;
      await waitUntil(() => received.length >= total);
      const log = await poolOf(db).query<{ id: string }>(
        `SELECT id::text AS id FROM "SessionEvent" WHERE "sessionId" = $1 ORDER BY "SessionEvent".id`,
        [sessionId],
      );
      expect(received.map((event) => event.id)).toEqual(log.rows.map((row) => row.id));
      expect((await readEventsAfter(db, sessionId, null)).map((event) => event.id)).toEqual(
        log.rows.map((row) => row.id),
      );
      expect(received.map((event) => event.data.n)).toEqual([...Array(total).keys()]);
      expect(received.every((event) => event.createdAt instanceof Date && event.sessionId === sessionId)).toBe(true);
      // This process's appends told the other instance (batched NOTIFY, tagged with this process).
      // Not on PGlite: its socket server runs one backend for all connections, and a notification
      // goes to the connection that sent it (an embedded database has no other instance anyway).
      if (hasNotify)
        await waitUntil(() =>
          heardElsewhere.some(
            (payload) => payload.endsWith(`|${sessionId}@${log.rows.at(-1)!.id}`) && !payload.startsWith("elsewhere|"),
          ),
        );
    } finally {
      controller.abort();
      await following;
      await other.end();
    }
  });

  it("a notification up to an event the follower has yielded is not read; one past it is", async () => {
    const { db } = backend;
    const sessionId = await newSession();
    const first = await appendEvent(db, { sessionId, type: "tools.changed", data: { n: 0 } });
    const controller = new AbortController();
    const received: SessionEventDto[] = [];
    const following = (async () => {
      for await (const event of followEvents(db, sessionId, null, controller.signal)) received.push(event);
    })();
    try {
      await waitUntil(() => received.length === 1);
      // Another instance's event, stored without telling anyone yet.
      const { rows } = await poolOf(db).query<{ id: string }>(
        `INSERT INTO "SessionEvent" ("sessionId", "type", "data") VALUES ($1, 'tools.changed', '{"n":1}') RETURNING id::text AS id`,
        [sessionId],
      );
      // As another instance's NOTIFY arrives: first one for what the follower has (no read), then
      // one for the new event (read). The follower's poll is 0.8 s away or more.
      await notify(db, CHANNELS.sessionEvents, sessionEventsPayload(sessionId, first));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.map((event) => event.id)).toEqual([first]);
      await notify(db, CHANNELS.sessionEvents, sessionEventsPayload(sessionId, rows[0]!.id));
      await waitUntil(() => received.length === 2, 500);
      expect(received.map((event) => event.id)).toEqual([first, rows[0]!.id]);
    } finally {
      controller.abort();
      await following;
    }
  });
});
