// GET /api/chats/<sessionId>/events: the chat's live event stream (Server-Sent Events), resumable
// with `Last-Event-ID` or `?after=<event id>`, for the signed-in owner of the chat. What it checks
// and answers is in server/api/chat-events.ts. The proxy (proxy.ts) skips this route, like the
// tRPC API: it is on every chat's hot path and sets the API's own headers.
import { answerChatEvents } from "@/server/api/chat-events.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ sessionId: string }> }): Promise<Response> {
  return answerChatEvents(request, (await context.params).sessionId);
}
