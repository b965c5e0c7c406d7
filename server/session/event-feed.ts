// The session event log: every canonical change a browser must see (user message, text and
// reasoning deltas, tool calls and results, turn status) is appended here as it happens, with a
// monotonic id. A browser subscribes from the last id it has, so after a reload or a reconnect it
// receives exactly what it missed: nothing duplicated, nothing lost. One writer per session at a
// time (the turn that holds the session), so ids are in commit order within a session. The SQL is
// in event-log.ts (with the event types); this module follows the log for a subscriber.
import type { Db } from "../db/client.ts";
import { noteEventSeen, onEventsAppended, parseSessionEventsPayload, type AppendedEvents } from "./event-log.ts";
import { EVENT_PAGE_SIZE, readEventsAfter } from "./event-reads.ts";
import { type SessionEventDto } from "./event-types.ts";
import { CHANNELS, isListening, onNotification } from "../db/notifier.ts";

/**
 * How long a waiting subscriber trusts notifications before it reads the log anyway: briefly when
 * this process cannot LISTEN (polling is all it has), rarely when it can (a lost notification is the
 * only thing the read catches), so hundreds of open chats do not each read the log every second.
 */
const POLL_INTERVAL_MS = 1_000;
const LISTENING_POLL_MS = 5_000;

/**
 * Yields the session's events after `afterId`, then new ones as they are appended, until abort,
 * in batches: each batch is the events that were ready together (a page read from the log, or
 * every appended batch waiting in the inbox that follows on from the cursor). Events this process
 * appends arrive with the id before them and are taken as they are (the same objects every
 * subscriber gets, so their SSE frame is made once: event-frames.ts) when that id is the cursor;
 * anything else (a gap, another instance's NOTIFY of an id past the cursor, the poll) makes it read
 * the log after the cursor. Either way each event is yielded once, in id order.
 */
export async function* followEventBatches(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
): AsyncGenerator<readonly SessionEventDto[]> {
  const inbox: AppendedEvents[] = [];
  let isStale = true; // the log must be read after the cursor
  let cursor = afterId;
  let wake: (() => void) | null = null;
  const poke = () => wake?.();
  const stopLocal = onEventsAppended(sessionId, (appended) => {
    inbox.push(appended);
    poke();
  });
  const stopRemote = onNotification(CHANNELS.sessionEvents, (payload) => {
    // Every follower hears every chat's notification: another chat's is passed over before parsing.
    if (!payload.startsWith(sessionId)) return;
    const notified = parseSessionEventsPayload(payload);
    if (notified.sessionId !== sessionId) return;
    // Already yielded up to that id (published here, or relayed from another worker): nothing to read.
    if (notified.lastId !== null && isBehind(notified.lastId, cursor)) return;
    isStale = true;
    poke();
  });
  signal.addEventListener("abort", poke);
  try {
    while (!signal.aborted) {
      if (isStale) {
        isStale = false; // before the read: a notification during it means read again
        const events = await readEventsAfter(db, sessionId, cursor);
        if (events.length === EVENT_PAGE_SIZE) isStale = true;
        if (events.length === 0) continue;
        noteEventSeen(sessionId, events.at(-1)!.id);
        cursor = events.at(-1)!.id;
        yield events;
        continue;
      }
      if (inbox.length > 0) {
        const taken = takeFollowing(inbox, cursor);
        if (taken.isGap) isStale = true;
        if (taken.events.length === 0) continue;
        cursor = taken.events.at(-1)!.id;
        yield taken.events;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          isStale = true;
          resolve();
        }, pollDelay());
        wake = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
      });
    }
  } finally {
    stopLocal();
    stopRemote();
    signal.removeEventListener("abort", poke);
  }
}

/** followEventBatches one event at a time (for callers that handle events singly). */
export async function* followEvents(
  db: Db,
  sessionId: string,
  afterId: string | null,
  signal: AbortSignal,
): AsyncGenerator<SessionEventDto> {
  for await (const batch of followEventBatches(db, sessionId, afterId, signal)) yield* batch;
}

/**
 * Takes appended batches off the front of the inbox while each follows on from the cursor, and
 * skips those already read from the log; stops at a gap (then the log must be read).
 */
function takeFollowing(inbox: AppendedEvents[], cursor: string | null): { events: SessionEventDto[]; isGap: boolean } {
  let events: SessionEventDto[] = [];
  while (inbox.length > 0) {
    const appended = inbox.shift()!;
    if (isBehind(appended.events.at(-1)!.id, cursor)) continue; // already read from the log
    if (appended.previousId !== cursor) return { events, isGap: true };
    events = events.length === 0 ? appended.events : events.concat(appended.events);
    cursor = appended.events.at(-1)!.id;
  }
  return { events, isGap: false };
}

/** The wait before the next read of the log, with ±20 % jitter so subscribers opened together spread out. */
function pollDelay(): number {
  return (isListening() ? LISTENING_POLL_MS : POLL_INTERVAL_MS) * (0.8 + Math.random() * 0.4);
}

/** Whether event `id` is at or before `cursor` (ids are bigint strings). */
function isBehind(id: string, cursor: string | null): boolean {
  return cursor !== null && BigInt(id) <= BigInt(cursor);
}
