// What a browser sees of one session, recorded for the benches: a followEvents subscriber (the feed
// the chat's SSE route streams to the browser, here one event at a time) that stamps every
// text.delta with its arrival time and resolves when the turn's turn.finished event arrives (or the
// watch is stopped).
import { performance } from "node:perf_hooks";

import type { Db } from "../server/db/client.ts";
import { followEvents } from "../server/session/event-feed.ts";

export type ReceivedDelta = { at: number; text: string };

export type SessionWatch = {
  deltas: ReceivedDelta[];
  /** Resolves with the turn's final status, or null when stopped before turn.finished arrived. */
  finished: Promise<string | null>;
  finishedAt: () => number | null;
  stop(): void;
};

export function watchSession(db: Db, sessionId: string): SessionWatch {
  const controller = new AbortController();
  const deltas: ReceivedDelta[] = [];
  let finishedAt: number | null = null;
  const finished = (async () => {
    try {
      for await (const event of followEvents(db, sessionId, null, controller.signal)) {
        if (event.type === "text.delta") {
          deltas.push({ at: performance.now(), text: typeof event.data.text === "string" ? event.data.text : "" });
        }
        if (event.type === "turn.finished") {
          finishedAt = performance.now();
          return String(event.data.status);
        }
      }
      return null;
    } finally {
      controller.abort();
    }
  })();
  return { deltas, finished, finishedAt: () => finishedAt, stop: () => controller.abort() };
}
