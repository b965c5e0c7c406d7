// Follows one chat's live events in the browser: GET /api/chats/<sessionId>/events (an SSE stream,
// server/api/chat-events.ts) read with fetch, so the status and the words of a refusal can be read.
// Events go to `onEvents` a batch at a time (what one read of the body brought), in id order.
// After a dropped connection, a stream that ended (the server went away) or failed (its
// `event: error` frame), or a refusal the server may get over (503 while its database is down, any
// 5xx), it connects again after a growing pause (RETRY_DELAYS_MS), resuming after the last event it
// delivered (`Last-Event-ID`), so nothing is duplicated or lost. A 401 (signed out) or 404 (the chat
// is gone or not yours) stops it: connecting again would get the same answer. It stops for good
// when `signal` aborts. `onState` hears each change: connecting, open, reconnecting (after a
// failure, until a stream is open again) and stopped (with the refusal's code and words).
import type { ChatEvent } from "./chat-state.ts";
import { createSseParser } from "./sse-parser.ts";

/** Pauses before each new attempt after a failure: the first, second, ...; the last repeats. */
export const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];

export type StreamError = { code: string; message: string };
export type StreamState = {
  status: "connecting" | "open" | "reconnecting" | "stopped";
  /** Why the last attempt failed (null once a stream is open). */
  error: StreamError | null;
};

type Options = {
  sessionId: string;
  afterId: string | null;
  signal: AbortSignal;
  onEvents: (events: ChatEvent[]) => void;
  onState: (state: StreamState) => void;
};

const LOST: StreamError = { code: "network", message: "The live connection to the server was lost." };
const STOPPING_STATUSES = new Set([401, 404]);

function eventOf(data: string): ChatEvent {
  const event = JSON.parse(data) as ChatEvent & { createdAt?: string | Date };
  return { ...event, createdAt: event.createdAt ? new Date(event.createdAt) : undefined };
}

async function refusalOf(response: Response): Promise<StreamError> {
  const body = (await response.json().catch(() => null)) as Partial<StreamError> | null;
  return {
    code: typeof body?.code === "string" ? body.code : `http:${response.status}`,
    message: typeof body?.message === "string" ? body.message : `The server answered ${response.status}.`,
  };
}

/** Reads an open stream to its end; the failure it reports (the `error` frame's), or LOST. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ChatEvent) => void,
  onBatchEnd: () => void,
): Promise<StreamError> {
  let failure: StreamError = LOST;
  const parser = createSseParser((frame) => {
    if (frame.event === "error") failure = JSON.parse(frame.data) as StreamError;
    else if (frame.event === "message") onEvent(eventOf(frame.data));
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return failure;
    parser.push(decoder.decode(value, { stream: true }));
    onBatchEnd();
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** One attempt: the failure that ended it, `stop` for a refusal that ends following, null when aborted. */
async function connectOnce(options: Options, cursor: { id: string | null }, onOpen: () => void) {
  const { sessionId, signal, onEvents } = options;
  let batch: ChatEvent[] = [];
  try {
    const response = await fetch(`/api/chats/${encodeURIComponent(sessionId)}/events`, {
      headers: cursor.id
        ? { accept: "text/event-stream", "last-event-id": cursor.id }
        : { accept: "text/event-stream" },
      cache: "no-store",
      signal,
    });
    if (!response.ok || !response.body) {
      const error = await refusalOf(response);
      return { error, isFinal: STOPPING_STATUSES.has(response.status) };
    }
    onOpen();
    const error = await readStream(
      response.body,
      (event) => batch.push(event),
      () => {
        if (batch.length === 0) return;
        cursor.id = batch.at(-1)!.id;
        onEvents(batch);
        batch = [];
      },
    );
    return { error, isFinal: false };
  } catch {
    return signal.aborted ? null : { error: LOST, isFinal: false };
  }
}

/** Follows the chat until `signal` aborts or the server refuses for good (see the file comment). */
export async function followChatEvents(options: Options): Promise<void> {
  const { signal, onState } = options;
  const cursor = { id: options.afterId };
  let failures = 0;
  onState({ status: "connecting", error: null });
  while (!signal.aborted) {
    const ended = await connectOnce(options, cursor, () => {
      failures = 0;
      onState({ status: "open", error: null });
    });
    if (!ended || signal.aborted) return;
    if (ended.isFinal) return onState({ status: "stopped", error: ended.error });
    onState({ status: "reconnecting", error: ended.error });
    await pause(RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)]!, signal);
    failures += 1;
  }
}
