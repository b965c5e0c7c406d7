// One browser's live event stream of a chat as Server-Sent Events frames: the session's events
// after `afterId` (followEventBatches: nothing duplicated, nothing lost, other instances' appends
// through NOTIFY and the poll), one write of pre-made frames (event-frames.ts) per batch of events
// that are ready together, a `: ping` comment every PING_INTERVAL_MS while idle or not, and an
// `event: error` frame before it ends when reading the log fails (the database went away: the
// browser reconnects from its last id).
// - pumpEventStream writes the frames into a FrameSink: a Node response (the API lane,
//   server/api/http-lane.ts) or createEventStream's ReadableStream (the route handler). It takes the
//   next batch only when the sink has taken the last one, so a slow reader holds at most one batch.
// - When `signal` aborts (the request ended) or the reader cancels, the follower, the timer and
//   every listener are released, and the sink is ended.
import type { Db } from "../db/client.ts";
import { type AppError, logAppError, toAppError } from "../errors.ts";
import { followEventBatches } from "./event-feed.ts";
import { errorFrame, eventFrames, OPEN_FRAME, PING_FRAME } from "./event-frames.ts";

/** How often an open stream writes a keep-alive comment. */
export const PING_INTERVAL_MS = 15_000;

/** Where a stream's frames go. */
export type FrameSink = {
  /** Writes a frame; false when the reader is behind (then `drained` resolves when it has caught up or gone). */
  write(frame: string): boolean;
  drained(): Promise<void>;
  /** Ends the stream; the sink ignores writes after it. */
  end(): void;
};

export type EventStreamOptions = { pingIntervalMs?: number };

/** Runs the chat's event stream into `sink` until `signal` aborts or reading the log fails; then ends it. */
export async function pumpEventStream(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
  sink: FrameSink,
  options: EventStreamOptions = {},
): Promise<void> {
  if (signal.aborted) return sink.end();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener("abort", onAbort);
  const ping = setInterval(() => sink.write(PING_FRAME), options.pingIntervalMs ?? PING_INTERVAL_MS);
  let failure: AppError | null = null;
  try {
    sink.write(OPEN_FRAME);
    for await (const batch of followEventBatches(db, sessionId, afterId, stop.signal)) {
      if (stop.signal.aborted) break;
      if (!sink.write(eventFrames(batch))) await sink.drained();
    }
  } catch (error) {
    failure = toAppError(error);
    logAppError(failure, "chat event stream");
  } finally {
    clearInterval(ping);
    signal.removeEventListener("abort", onAbort);
  }
  if (failure && !stop.signal.aborted) sink.write(errorFrame(failure));
  stop.abort();
  sink.end();
}

const encoder = new TextEncoder();

/** The chat's event stream as the bytes of a response body (for a Web Response: the route handler). */
export function createEventStream(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
  options: EventStreamOptions = {},
): ReadableStream<Uint8Array> {
  return eventStreamBody(
    (runSignal, sink) => pumpEventStream(db, sessionId, afterId, runSignal, sink, options),
    signal,
  );
}

/** A pump's frames as a ReadableStream's bytes, taken at the reader's pace; `signal` or a cancel stops the pump. */
export function eventStreamBody(
  run: (signal: AbortSignal, sink: FrameSink) => Promise<void>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const cancelled = new AbortController();
  let isClosed = false;
  let resume: (() => void) | null = null;
  const wake = () => {
    resume?.();
    resume = null;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: FrameSink = {
        write: (frame) => {
          if (isClosed) return true;
          controller.enqueue(encoder.encode(frame));
          return (controller.desiredSize ?? 0) > 0;
        },
        drained: () => (isClosed ? Promise.resolve() : new Promise<void>((resolve) => (resume = resolve))),
        end: () => {
          if (isClosed) return;
          isClosed = true;
          controller.close();
        },
      };
      void run(AbortSignal.any([signal, cancelled.signal]), sink);
    },
    pull: wake,
    cancel() {
      isClosed = true;
      cancelled.abort();
      wake();
    },
  });
}
