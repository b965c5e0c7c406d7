// The in-memory fan-out on the real Postgres: a streaming message's writer (streaming-message.ts)
// publishes each delta to this process's followers before it is stored, numbered from the ids its
// request reserved (event-ids.ts), and stores it behind with the same id; an event appended by
// someone else meanwhile is never followed by a smaller self-numbered id. A turn publishes its
// request's first events and deltas while the request's bookkeeping has not committed yet.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { AssistantDraft } from "./assistant-draft.ts";
import { queueDeltas } from "./delta-queue.ts";
import { EventIdReservation } from "./event-ids.ts";
import { followEvents } from "./event-feed.ts";
import { appendEvent } from "./event-log.ts";
import { readEventsAfter } from "./event-reads.ts";
import type { SessionEventDto } from "./event-types.ts";
import { createWriter } from "./streaming-message.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";
import { recordRequestStart } from "./request-start.ts";
import { newRowId, startTurnRows } from "./turn-sql.ts";
import { streamPoolOf } from "../db/client.ts";
import {
  createTestEngine,
  createUserWithSession,
  TEST_MODELS,
  waitForTurnEnd,
} from "../../e2e/support/testbeds/engine.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

async function waitUntil(isDone: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!isDone()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A session with a started turn and its first request's bookkeeping (reserving `reserveIds`). */
async function startedRequest(reserveIds: number) {
  const user = await createTestUser(database.db, "Fanout");
  const session = await database.db.chatSession.create({ data: { ownerId: user.id, title: "New chat" } });
  const turn: TurnSpec = {
    id: newRowId(),
    sessionId: session.id,
    historySeq: 1,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    accountId: null,
  };
  await startTurnRows(database.db, {
    id: turn.id,
    sessionId: session.id,
    ownerId: user.id,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    accountId: null,
    text: "hello",
    title: "hello",
    leaseOwner: "fanout-test",
    leaseExpiresAt: new Date(Date.now() + 60_000),
  });
  const messageId = newRowId();
  const reserved = await recordRequestStart(database.db, {
    requestId: newRowId(),
    messageId,
    turnId: turn.id,
    sessionId: session.id,
    index: 0,
    toolsRevision: 1,
    toolNames: [],
    reserveIds,
  });
  return { turn, messageId, reserved };
}

function follow(sessionId: string) {
  const controller = new AbortController();
  const received: SessionEventDto[] = [];
  const done = (async () => {
    for await (const event of followEvents(database.db, sessionId, null, controller.signal)) received.push(event);
  })();
  return { received, stop: () => (controller.abort(), done) };
}

/** A writer of the request's message, as the turn runner makes one, on a reservation of `reserved`. */
function writerFor(started: Awaited<ReturnType<typeof startedRequest>>, flushIntervalMs: number) {
  const { turn, messageId, reserved } = started;
  const deps = { db: database.db, flushIntervalMs } as TurnDeps;
  const draft = new AssistantDraft("anthropic", { revision: 1, tools: [] });
  const reservation = new EventIdReservation(streamPoolOf(database.db), turn.sessionId, reserved);
  const writer = createWriter(deps, turn, messageId, draft, new AbortController().signal, {
    ids: reservation,
    published: Promise.resolve(),
    stored: Promise.resolve(),
  });
  return { draft, writer };
}

describe("in-memory fan-out of streamed deltas", () => {
  it("reserves ids above the request's own events, ascending", async () => {
    const { turn, reserved } = await startedRequest(5);
    const log = await readEventsAfter(database.db, turn.sessionId, null);
    expect(reserved).toHaveLength(5);
    expect(reserved.map(BigInt)).toEqual([...reserved.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)));
    expect(BigInt(reserved[0]!)).toBeGreaterThan(BigInt(log.at(-1)!.id));
  });

  it("publishes deltas before they are stored, stores them with the same ids, and each reaches a follower once", async () => {
    const started = await startedRequest(3); // few: the writer must refill
    const { turn, messageId } = started;
    const follower = follow(turn.sessionId);
    await waitUntil(() => follower.received.some((event) => event.type === "message.created"));
    // Another connection holds the message row: the deltas statement waits, the followers do not.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query(`SELECT id FROM "Message" WHERE id = $1 FOR UPDATE`, [messageId]);
    const { draft, writer } = writerFor(started, 5);
    const words = Array.from({ length: 8 }, (_, at) => `w${at} `);
    for (const word of words) {
      draft.apply({ type: "text-delta", text: word });
      writer.schedule();
      await new Promise((resolve) => setTimeout(resolve, 12));
    }
    const closed = writer.close();
    const deltas = () => follower.received.filter((event) => event.type === "text.delta");
    await waitUntil(
      () =>
        deltas()
          .map((event) => event.data.text)
          .join("") === words.join(""),
    );
    const storedBefore = await readEventsAfter(database.db, turn.sessionId, null);
    expect(storedBefore.filter((event) => event.type === "text.delta")).toHaveLength(0);

    await blocker.query("COMMIT");
    await blocker.end();
    await closed;
    const stored = await readEventsAfter(database.db, turn.sessionId, null);
    expect(stored.filter((event) => event.type === "text.delta").map((event) => event.id)).toEqual(
      deltas().map((event) => event.id),
    );
    const message = await database.db.message.findUniqueOrThrow({ where: { id: messageId } });
    expect(message.parts).toEqual([{ type: "text", text: words.join("") }]);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the re-delivery after the commit
    await follower.stop();
    expect(follower.received.map((event) => event.id)).toEqual(stored.map((event) => event.id));
  });

  it("batches only deltas that come faster than the flush interval: a slower stream's are not held back", async () => {
    const started = await startedRequest(20);
    const follower = follow(started.turn.sessionId);
    await waitUntil(() => follower.received.some((event) => event.type === "message.created"));
    const { draft, writer } = writerFor(started, 1_000);
    const deltas = () => follower.received.filter((event) => event.type === "text.delta");
    // Slower than the interval: each delta is its own event, out long before the interval would end.
    for (const [at, word] of ["slow0 ", "slow1 "].entries()) {
      if (at > 0) await new Promise((resolve) => setTimeout(resolve, 1_050));
      draft.apply({ type: "text-delta", text: word });
      writer.schedule();
      await waitUntil(() => deltas().length === at + 1, 500);
    }
    // Faster than the interval: held and sent together when the interval since the last one ends.
    for (const word of ["fast0 ", "fast1 ", "fast2 "]) {
      draft.apply({ type: "text-delta", text: word });
      writer.schedule();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deltas()).toHaveLength(2);
    await waitUntil(() => deltas().length === 3, 2_000);
    expect(deltas().map((event) => event.data.text)).toEqual(["slow0 ", "slow1 ", "fast0 fast1 fast2 "]);
    await writer.close();
    await follower.stop();
  });

  it("never hands out a reserved id below an event appended meanwhile", async () => {
    const { turn, reserved } = await startedRequest(20); // enough that taking one starts no refill
    const reservation = new EventIdReservation(streamPoolOf(database.db), turn.sessionId, reserved);
    expect(reservation.take(1)).toEqual([reserved[0]]);
    const later = await appendEvent(database.db, {
      sessionId: turn.sessionId,
      type: "tools.changed",
      data: { revision: 2, reason: "test" },
    });
    expect(reservation.take(1)).toBeNull(); // the other 19 are below `later`
    await reservation.ensure(2);
    const fresh = reservation.take(2)!;
    expect(fresh.every((id) => BigInt(id) > BigInt(later))).toBe(true);
  });

  it("stores a numbered batch once when its statement is sent again (a retry after a lost answer)", async () => {
    const { turn, messageId, reserved } = await startedRequest(2);
    const delta = { messageId, partIndex: 0, text: "a" };
    const batch = {
      sessionId: turn.sessionId,
      turnId: turn.id,
      messageId,
      parts: JSON.stringify([{ type: "text", text: "a" }]),
      events: [{ type: "text.delta" as const, data: delta, id: reserved[0]!, createdAt: new Date() }],
    };
    await queueDeltas(streamPoolOf(database.db), batch);
    await queueDeltas(streamPoolOf(database.db), batch);
    const log = await readEventsAfter(database.db, turn.sessionId, null);
    expect(log.filter((event) => event.type === "text.delta").map((event) => event.id)).toEqual([reserved[0]]);
  });

  it("a turn's request events and first deltas reach a follower while its bookkeeping cannot commit yet", async () => {
    const engine = await createTestEngine();
    const blocker = new pg.Client({ connectionString: engine.database.url });
    try {
      const { userId, sessionId } = await createUserWithSession(engine.db, "Early");
      const follower = (() => {
        const controller = new AbortController();
        const received: SessionEventDto[] = [];
        const done = (async () => {
          for await (const event of followEvents(engine.db, sessionId, null, controller.signal)) received.push(event);
        })();
        return { received, stop: () => (controller.abort(), done) };
      })();
      engine.fake.script("anthropic", { steps: [{ type: "text", text: "early words here" }], delayMs: 5 });
      // Inserting the request's audit row waits on this lock: the bookkeeping statement cannot commit.
      await blocker.connect();
      await blocker.query("BEGIN");
      await blocker.query(`LOCK TABLE "TurnRequest" IN EXCLUSIVE MODE`);
      const { turnId } = await engine.manager.startTurn(userId, sessionId, "say it", {
        provider: "anthropic",
        model: TEST_MODELS.anthropic,
      });
      const text = () =>
        follower.received
          .filter((event) => event.type === "text.delta")
          .map((event) => event.data.text)
          .join("");
      await waitUntil(() => text().length > 0);
      const early = follower.received.map((event) => event.type);
      expect(early).toEqual(expect.arrayContaining(["request.started", "message.created", "text.delta"]));
      expect(early.indexOf("message.created")).toBeLessThan(early.indexOf("text.delta"));
      const storedEarly = await readEventsAfter(engine.db, sessionId, null);
      expect(storedEarly.map((event) => event.type)).not.toContain("message.created");

      await blocker.query("COMMIT");
      await waitForTurnEnd(engine.db, turnId);
      await waitUntil(() => follower.received.some((event) => event.type === "turn.finished"));
      await follower.stop();
      expect(text()).toBe("early words here");
      const stored = await readEventsAfter(engine.db, sessionId, null);
      expect(follower.received.map((event) => [event.id, event.type])).toEqual(
        stored.map((event) => [event.id, event.type]),
      );
    } finally {
      await blocker.end().catch(() => undefined);
      await engine.close();
    }
  });
});
