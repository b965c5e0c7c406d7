// One browser's live event stream of a chat, as the bytes of a Server-Sent Events response body:
// the session's events after `afterId` (followEventBatches: nothing duplicated, nothing lost, other
// instances' appends through NOTIFY and the poll), one write of pre-made frames (event-frames.ts)
// per batch of events that are ready together, a `: ping` comment every PING_INTERVAL_MS while
// idle or not, and an `event: error` frame before it closes when reading the log fails (the
// database went away: the browser reconnects from its last id). The stream pulls the next batch
// only when the previous one was taken, so a slow reader holds at most one batch here. When
// `signal` aborts (the request ended) or the reader cancels, the follower, the timer and every
// listener are released.
import type { Db } from "../db/client.ts";
import { type AppError, logAppError, toAppError } from "../errors.ts";
import { followEventBatches } from "./event-feed.ts";
import { errorFrame, eventFrames, OPEN_FRAME, PING_FRAME } from "./event-frames.ts";

/** How often an open stream writes a keep-alive comment. */
export const PING_INTERVAL_MS = 15_000;

const encoder = new TextEncoder();
const PING_BYTES = encoder.encode(PING_FRAME);

export function createEventStream(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
  options: { pingIntervalMs?: number } = {},
): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  const batches = followEventBatches(db, sessionId, afterId, stop.signal);
  let ping: NodeJS.Timeout | undefined;
  let isClosed = false;
  const release = () => {
    clearInterval(ping);
    signal.removeEventListener("abort", release);
    stop.abort();
  };
  /** Ends the stream (after `frame`, if any) unless the reader already cancelled it. */
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, frame?: string) => {
    release();
    if (isClosed) return;
    isClosed = true;
    if (frame) controller.enqueue(encoder.encode(frame));
    controller.close();
  };
  signal.addEventListener("abort", release);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal.aborted) return finish(controller);
      controller.enqueue(encoder.encode(OPEN_FRAME));
      ping = setInterval(() => controller.enqueue(PING_BYTES), options.pingIntervalMs ?? PING_INTERVAL_MS);
    },
    async pull(controller) {
      let failure: AppError | null = null;
      try {
        const next = await batches.next();
        if (!next.done && !isClosed) return controller.enqueue(encoder.encode(eventFrames(next.value)));
      } catch (error) {
        failure = toAppError(error);
        logAppError(failure, "chat event stream");
      }
      finish(controller, failure && !stop.signal.aborted ? errorFrame(failure) : undefined);
    },
    cancel() {
      isClosed = true;
      release();
    },
  });
}
