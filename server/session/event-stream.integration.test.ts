// The SSE body of a chat's live events (event-stream.ts) on the real Postgres: it opens with a
// comment, resumes after an event id from the log, then writes what this process publishes as it
// comes, the events published together in one chunk and serialised once for every subscriber of
// the session (the same frame in each); it pings while idle; ending the request or cancelling the
// reader closes it and releases its listeners; a log that cannot be read ends it with an error frame.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createDbClient, type Db } from "../db/client.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { appendEvents, onEventsAppended, publishHere } from "./event-log.ts";
import { createEventStream } from "./event-stream.ts";
import type { SessionEventDto } from "./event-types.ts";

const decoder = new TextDecoder();
const idsIn = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => match[1]);

/** Reads chunks until the text holds `count` frames with an id (or the stream ends); each chunk as text. */
async function readChunks(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<string[]> {
  const chunks: string[] = [];
  while (idsIn(chunks.join("")).length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(decoder.decode(value));
  }
  return chunks;
}

/** How many in-process subscribers the session has (the emitter behind onEventsAppended). */
function subscriberCount(sessionId: string): number {
  let count = 0;
  const probe = onEventsAppended(sessionId, () => undefined);
  const emitter = (globalThis as unknown as { patchbayAppendedEvents: { listenerCount(name: string): number } })
    .patchbayAppendedEvents;
  count = emitter.listenerCount(sessionId) - 1;
  probe();
  return count;
}

describe("createEventStream", () => {
  let database: TestDatabase;
  let db: Db;
  let ownerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    ownerId = (await createTestUser(db, "Reader")).id;
  });
  afterAll(async () => database?.drop());

  const newSession = async () => (await db.chatSession.create({ data: { ownerId, title: "New chat" } })).id;
  const delta = (text: string) => ({ type: "text.delta" as const, data: { text } });

  it("resumes after an event id from the log, then writes each published batch as one chunk, the same frame for every subscriber", async () => {
    const sessionId = await newSession();
    const stored = await appendEvents(db, { sessionId, events: [delta("a"), delta("b"), delta("c")] });
    const requests = [new AbortController(), new AbortController()];
    const readers = requests.map((request) => createEventStream(db, sessionId, stored[0]!, request.signal).getReader());
    try {
      const opened = await Promise.all(readers.map((reader) => readChunks(reader, 2)));
      for (const chunks of opened) {
        expect(chunks[0]).toBe(": open\n\n");
        expect(idsIn(chunks.join(""))).toEqual(stored.slice(1));
      }
      const next = BigInt(stored.at(-1)!);
      const createdAt = new Date();
      const published: SessionEventDto[] = [1n, 2n].map((step) => ({
        id: String(next + step),
        sessionId,
        turnId: null,
        type: "text.delta",
        data: { text: `live ${step}` },
        createdAt,
      }));
      publishHere(sessionId, published);
      const live = await Promise.all(readers.map((reader) => readChunks(reader, 2)));
      expect(live[0]).toHaveLength(1); // the two events that were ready together: one write
      expect(idsIn(live[0]![0]!)).toEqual(published.map((event) => event.id));
      expect(live[1]).toEqual(live[0]);
      expect(subscriberCount(sessionId)).toBe(2);
    } finally {
      requests.forEach((request) => request.abort());
    }
    for (const reader of readers) expect((await reader.read()).done).toBe(true);
    expect(subscriberCount(sessionId)).toBe(0);
  });

  it("pings while idle, and a reader that cancels releases the follower", async () => {
    const sessionId = await newSession();
    const reader = createEventStream(db, sessionId, null, new AbortController().signal, {
      pingIntervalMs: 50,
    }).getReader();
    const texts: string[] = [];
    while (texts.filter((text) => text === ": ping\n\n").length < 2)
      texts.push(decoder.decode((await reader.read()).value));
    expect(texts[0]).toBe(": open\n\n");
    expect(subscriberCount(sessionId)).toBe(1);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(subscriberCount(sessionId)).toBe(0);
  });

  it("ends with an error frame in words when the database cannot be reached", async () => {
    const unreachable = createDbClient("postgresql://postgres@127.0.0.1:9/patchbay", { max: 1 });
    const reader = createEventStream(unreachable, "any-session", null, new AbortController().signal).getReader();
    const texts: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) texts.push(decoder.decode(next.value));
    expect(texts[0]).toBe(": open\n\n");
    expect(texts.at(-1)).toBe(
      `event: error\ndata: ${JSON.stringify({
        code: "unavailable:database",
        message: "The database is unavailable right now; Patchbay retries by itself, try again in a moment.",
      })}\n\n`,
    );
    await unreachable.$disconnect();
  });
});
