// The chat's live events as Server-Sent Events frames (the wire format of
// app/api/chats/[sessionId]/events): `id: <event id>\ndata: <event JSON>\n\n` per event, `: ping`
// comment lines to keep idle connections open, and one `event: error` frame with the AppError's
// code and words when the stream ends on a failure. Contracts:
//  - an event object is serialised at most once in this process, however many subscribers follow
//    its session: the frame is cached on the object (weakly; it goes when the event does), and
//    every subscriber that receives the same event object writes the same string;
//  - the JSON holds what the browser applies (id, turnId, type, data, createdAt as ISO 8601), on
//    one line: JSON.stringify escapes every line break, so a frame never splits inside its data.
import type { AppError } from "../errors.ts";
import type { SessionEventDto } from "./event-types.ts";

/** A comment line: the reader ignores it; it keeps proxies and the browser from timing out an idle stream. */
export const PING_FRAME = ": ping\n\n";
/** The first bytes of a stream, so that its headers go out before the first event. */
export const OPEN_FRAME = ": open\n\n";

const frames = new WeakMap<SessionEventDto, string>();

/** The event's frame, made once per event object. */
export function eventFrame(event: SessionEventDto): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    const json = JSON.stringify({
      id: event.id,
      turnId: event.turnId,
      type: event.type,
      data: event.data,
      createdAt: event.createdAt,
    });
    frame = `id: ${event.id}\ndata: ${json}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

/** The frames of events that are ready together, as one string (one write for all of them). */
export function eventFrames(events: readonly SessionEventDto[]): string {
  if (events.length === 1) return eventFrame(events[0]!);
  let text = "";
  for (const event of events) text += eventFrame(event);
  return text;
}

/** The last frame of a stream that failed: its code and the words the user sees. */
export function errorFrame(error: AppError): string {
  return `event: error\ndata: ${JSON.stringify({ code: error.code, message: error.message })}\n\n`;
}
