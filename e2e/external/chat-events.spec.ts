// The chat's live event stream over HTTP (GET /api/chats/<id>/events, the production build), as a
// browser or any other client calls it: the refusals, each with its status, code and words (signed
// out 401; another user's chat and an unknown one the same 404; a cursor that is not an event id
// 400, from the query or the Last-Event-ID header), the API's headers on every answer, and an
// exact resume: the stream read again after any event id gives exactly the events after it.
import type { Page } from "@playwright/test";

import { ALICE, BOB, EXTERNAL_APP_URL } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { trpcMutation } from "../support/trpc-http.ts";

type Frame = { id: string; event: { id: string; type: string; data: { text?: string } } };

async function cookieOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies(EXTERNAL_APP_URL);
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** A new chat of the signed-in `page`: its id and the cookie that reads its stream. */
async function newChat(page: Page, title: string): Promise<{ sessionId: string; cookie: string }> {
  const created = await trpcMutation(page.request, "session.create", { title });
  return { sessionId: (created.data as { id: string }).id, cookie: await cookieOf(page) };
}

function eventsUrl(sessionId: string, query = ""): string {
  return `${EXTERNAL_APP_URL}/api/chats/${encodeURIComponent(sessionId)}/events${query}`;
}

/** Reads the stream until `isLast(frame)` (or 15 s), then lets it go. */
async function readFrames(response: Response, isLast: (frame: Frame) => boolean): Promise<Frame[]> {
  const frames: Frame[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const deadline = setTimeout(() => void reader.cancel(), 15_000);
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return frames;
      text += decoder.decode(value, { stream: true });
      let end;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const lines = text.slice(0, end).split("\n");
        text = text.slice(end + 2);
        const id = lines.find((line) => line.startsWith("id: "))?.slice(4);
        const data = lines.find((line) => line.startsWith("data: "))?.slice(6);
        if (id === undefined || data === undefined) continue;
        frames.push({ id, event: JSON.parse(data) as Frame["event"] });
        if (isLast(frames.at(-1)!)) return frames;
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
}

function expectApiHeaders(response: Response): void {
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("cache-control")).toContain("no-store");
}

async function expectRefusal(response: Response, status: number, code: string, words: string | RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  expectApiHeaders(response);
  const body = (await response.json()) as { code: string; message: string };
  expect(body.code).toBe(code);
  expect(body.message).toMatch(words);
  return body;
}

test("refusals: signed out 401, someone else's chat and an unknown one the same 404, a bad cursor 400", async ({
  openAs,
}) => {
  const { sessionId, cookie: aliceCookie } = await newChat(await openAs(ALICE), "Alice's stream");
  const bobCookie = await cookieOf(await openAs(BOB));

  await expectRefusal(await fetch(eventsUrl(sessionId)), 401, "unauthorized:auth", "You need to sign in first.");
  const bobsAnswers = [
    await fetch(eventsUrl(sessionId), { headers: { cookie: bobCookie } }),
    await fetch(eventsUrl("no-such-chat-anywhere"), { headers: { cookie: bobCookie } }),
  ];
  const foreign = await expectRefusal(bobsAnswers[0]!, 404, "not_found:session", /does not exist or is not yours/);
  const unknown = await expectRefusal(bobsAnswers[1]!, 404, "not_found:session", /does not exist or is not yours/);
  expect(foreign).toEqual(unknown);

  const asAlice = { cookie: aliceCookie };
  await expectRefusal(
    await fetch(eventsUrl(sessionId, "?after=12abc"), { headers: asAlice }),
    400,
    "bad_request:api",
    "Check the input — after: must be an event id (digits only).",
  );
  await expectRefusal(
    await fetch(eventsUrl(sessionId), { headers: { ...asAlice, "last-event-id": "-1" } }),
    400,
    "bad_request:api",
    "Check the input — Last-Event-ID: must be an event id (digits only).",
  );
  await expectRefusal(
    await fetch(eventsUrl("x".repeat(65)), { headers: asAlice }),
    400,
    "bad_request:api",
    /sessionId: is too long/,
  );
});

test("an open stream, read again after any event id, gives exactly the events after it", async ({
  openAs,
  request,
}) => {
  const alice = await openAs(ALICE);
  const { sessionId, cookie } = await newChat(alice, "Resume me");
  const text = Array.from({ length: 30 }, (_, index) => `word${index}`).join(" ");
  await scriptFakeReply(request, "anthropic", {
    forMessage: "stream thirty words",
    steps: [{ type: "text", text, chunkSize: 6 }],
    delayMs: 20,
  });

  const live = await fetch(eventsUrl(sessionId), { headers: { cookie, accept: "text/event-stream" } });
  expect(live.status).toBe(200);
  expect(live.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(live.headers.get("x-accel-buffering")).toBe("no");
  expectApiHeaders(live);
  const sent = await trpcMutation(alice.request, "chat.send", {
    sessionId,
    text: "stream thirty words",
    choice: { provider: "anthropic", model: "claude-sonnet-4-5", accountId: null },
  });
  expect(sent.status, JSON.stringify(sent.error)).toBe(200);
  const all = await readFrames(live, (frame) => frame.event.type === "turn.finished");
  expect(all.at(-1)?.event.type).toBe("turn.finished");
  const ids = all.map((frame) => BigInt(frame.id));
  expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
  expect(new Set(ids).size).toBe(ids.length);
  expect(all.every((frame) => frame.id === frame.event.id)).toBe(true);
  const streamed = all.flatMap((frame) => (frame.event.type === "text.delta" ? [frame.event.data.text] : []));
  expect(streamed.join("")).toBe(text);

  for (const at of [0, 1, Math.floor(all.length / 2), all.length - 2]) {
    const cursor = all[at]!.id;
    const last = all.at(-1)!.id;
    const byHeader = await fetch(eventsUrl(sessionId), { headers: { cookie, "last-event-id": cursor } });
    const byQuery = await fetch(eventsUrl(sessionId, `?after=${cursor}`), { headers: { cookie } });
    for (const response of [byHeader, byQuery]) {
      const rest = await readFrames(response, (frame) => frame.id === last);
      expect(rest.map((frame) => frame.id)).toEqual(all.slice(at + 1).map((frame) => frame.id));
    }
  }
});
