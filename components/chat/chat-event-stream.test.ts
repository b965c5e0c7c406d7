// The browser's follower of a chat's event stream, against scripted answers of the SSE route (fetch
// replaced, unit test): events arrive in batches with their dates; after a stream that ended or a
// 503 it connects again, resuming after the last event it delivered (Last-Event-ID); a 401 or 404
// stops it with the server's words; aborting ends it without another request.
import { afterEach, describe, expect, it, vi } from "vitest";

import { AppError } from "@/server/errors.ts";
import { errorFrame, eventFrames, OPEN_FRAME } from "@/server/session/event-frames.ts";
import type { SessionEventDto } from "@/server/session/event-types.ts";

import { followChatEvents, type StreamState } from "./chat-event-stream.ts";
import type { ChatEvent } from "./chat-state.ts";

const createdAt = new Date("2026-11-26T10:00:00Z");
const delta = (id: string): SessionEventDto => ({
  id,
  sessionId: "s1",
  turnId: "t1",
  type: "text.delta",
  data: { text: `text ${id}` },
  createdAt,
});

const stream = (text: string) => new Response(text, { headers: { "content-type": "text/event-stream" } });
const refusal = (status: number, code: string) =>
  Response.json({ code, message: new AppError(code as AppError["code"]).message }, { status });

/** Answers the follower's requests in turn, recording each one's URL and Last-Event-ID. */
function scriptFetch(answers: (() => Response)[]) {
  const requests: { url: string; lastEventId: string | null }[] = [];
  vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
    requests.push({ url, lastEventId: new Headers(init.headers).get("last-event-id") });
    const answer = answers.shift();
    return answer ? Promise.resolve(answer()) : new Promise<Response>(() => undefined);
  });
  return requests;
}

function follow(afterId: string | null, signal = new AbortController().signal) {
  const batches: ChatEvent[][] = [];
  const states: StreamState[] = [];
  const done = followChatEvents({
    sessionId: "s 1",
    afterId,
    signal,
    onEvents: (events) => batches.push(events),
    onState: (state) => states.push(state),
  });
  return { batches, states, done };
}

afterEach(() => vi.unstubAllGlobals());

describe("followChatEvents", () => {
  it("resumes after the last event it delivered, and stops on a 404 with the server's words", async () => {
    const requests = scriptFetch([
      () => stream(OPEN_FRAME + eventFrames([delta("5"), delta("6")])),
      () => stream(OPEN_FRAME + eventFrames([delta("7")]) + errorFrame(new AppError("unavailable:database"))),
      () => refusal(404, "not_found:session"),
    ]);
    const { batches, states, done } = follow("4");
    await done;
    expect(requests).toEqual([
      { url: "/api/chats/s%201/events", lastEventId: "4" },
      { url: "/api/chats/s%201/events", lastEventId: "6" },
      { url: "/api/chats/s%201/events", lastEventId: "7" },
    ]);
    expect(batches.map((batch) => batch.map((event) => event.id))).toEqual([["5", "6"], ["7"]]);
    expect(batches[0]![0]).toEqual({ id: "5", turnId: "t1", type: "text.delta", data: { text: "text 5" }, createdAt });
    expect(states.map((state) => state.status)).toEqual([
      "connecting",
      "open",
      "reconnecting",
      "open",
      "reconnecting",
      "stopped",
    ]);
    expect(states[4]!.error?.code).toBe("unavailable:database");
    expect(states.at(-1)!.error).toEqual({
      code: "not_found:session",
      message: "That chat session does not exist or is not yours.",
    });
  });

  it("keeps trying through 503s and a dropped network, then stops on a 401", async () => {
    const requests = scriptFetch([
      () => refusal(503, "unavailable:database"),
      () => {
        throw new TypeError("Failed to fetch");
      },
      () => refusal(401, "unauthorized:auth"),
    ]);
    const { states, done } = follow(null);
    await done;
    expect(requests.map((request) => request.lastEventId)).toEqual([null, null, null]);
    expect(states.map((state) => [state.status, state.error?.code ?? null])).toEqual([
      ["connecting", null],
      ["reconnecting", "unavailable:database"],
      ["reconnecting", "network"],
      ["stopped", "unauthorized:auth"],
    ]);
  });

  it("ends when aborted, without another request", async () => {
    const abort = new AbortController();
    const requests = scriptFetch([() => refusal(503, "unavailable:database")]);
    const { states, done } = follow("9", abort.signal);
    await vi.waitFor(() => expect(states.at(-1)?.status).toBe("reconnecting"));
    abort.abort();
    await done;
    expect(requests).toHaveLength(1);
  });
});
