// The answer to GET /api/chats/<sessionId>/events (app/api/chats/[sessionId]/events/route.ts): the
// chat's live events as Server-Sent Events (server/session/event-stream.ts), for its owner only.
// Checked in this order, each refusal JSON `{ code, message }` through toResponse (server/errors.ts):
//  - the signed-in user of the request's session cookie, as every API call reads it
//    (getRequestUser): none is 401 unauthorized:auth; the database unreachable is 503
//    unavailable:database;
//  - the resume position: the standard `Last-Event-ID` header (what a reconnecting reader sends),
//    else the `after` query parameter, else the start of the log; anything but an event id (digits)
//    is 400 bad_request:api naming the field;
//  - the chat: another user's and an unknown one get the same 404 not_found:session, so an id
//    tells nothing about whether it exists.
// Every answer carries the API's security headers and `Cache-Control: no-store, no-transform`
// (no-transform also keeps the server's gzip from buffering the stream); the stream also
// `X-Accel-Buffering: no`, for nginx-style proxies.
import { z } from "zod";

import { getRequestUser } from "../auth/session.ts";
import { getDb } from "../db/client.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { AppError, inputError, toResponse } from "../errors.ts";
import { apiSecurityHeaders } from "../security-headers.ts";
import { eventStreamBody, type FrameSink, pumpEventStream } from "../session/event-stream.ts";

const API_HEADERS = { ...apiSecurityHeaders(), "Cache-Control": "no-store, no-transform" };
const STREAM_HEADERS = {
  ...API_HEADERS,
  "Content-Type": "text/event-stream; charset=utf-8",
  "X-Accel-Buffering": "no",
};

const EVENT_ID = /^\d{1,18}$/;
const sessionIdSchema = z.string().min(1).max(64, { error: "is too long (64 characters at most)" });

/** The event id to resume after (null: from the start); a bad one is a 400 naming where it came from. */
export function resumePosition(request: Request): string | null {
  const header = request.headers.get("last-event-id");
  const [field, value] = header ? ["Last-Event-ID", header] : ["after", new URL(request.url).searchParams.get("after")];
  if (value === null) return null;
  if (!EVENT_ID.test(value)) throw inputError([{ path: [field], message: "must be an event id (digits only)" }]);
  return value;
}

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(API_HEADERS)) response.headers.set(name, value);
  return response;
}

/** A checked request: the refusal to answer with, or the stream's headers and how to run it. */
export type ChatEventsOpening =
  | { refusal: Response }
  | { headers: Record<string, string>; run: (signal: AbortSignal, sink: FrameSink) => Promise<void> };

/** The checks above, for both ways of answering (this route's Response, the API lane's Node response). */
export async function openChatEvents(request: Request, sessionId: string): Promise<ChatEventsOpening> {
  try {
    const user = await getRequestUser(request);
    if (!user) throw new AppError("unauthorized:auth");
    const afterId = resumePosition(request);
    const id = sessionIdSchema.safeParse(sessionId);
    if (!id.success) throw inputError([{ path: ["sessionId"], message: id.error.issues[0]!.message }]);
    const db = await getDb();
    await getChatSession(db, user.id, id.data);
    return { headers: STREAM_HEADERS, run: (signal, sink) => pumpEventStream(db, id.data, afterId, signal, sink) };
  } catch (error) {
    return { refusal: withHeaders(toResponse(error, "chat events")) };
  }
}

export async function answerChatEvents(request: Request, sessionId: string): Promise<Response> {
  const opening = await openChatEvents(request, sessionId);
  if ("refusal" in opening) return opening.refusal;
  return new Response(eventStreamBody(opening.run, request.signal), { headers: opening.headers });
}
