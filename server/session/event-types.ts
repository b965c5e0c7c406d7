// What a session event is: its type (the canonical change a browser must see) and the row as it is
// read back from the log (event-log.ts) and sent to a subscriber (event-feed.ts). Types only.

export type SessionEventType =
  | "user.message"
  | "turn.started"
  | "message.created"
  | "message.updated"
  | "text.delta"
  | "reasoning.delta"
  | "tool.call"
  | "tool.result"
  | "tool.progress"
  | "tool.approval"
  | "tool.approval.decided"
  | "tool.question"
  | "tool.question.answered"
  | "limit.reached"
  | "request.started"
  | "request.finished"
  | "turn.finished"
  | "tools.changed"
  | "overlays.changed"
  /** A sub-agent run inside the turn changed: `{ callId, run }` with the whole run (sub-agent-store.ts). */
  | "subagent.updated";

export type SessionEventDto = {
  id: string;
  sessionId: string;
  turnId: string | null;
  type: SessionEventType;
  data: Record<string, unknown>;
  createdAt: Date;
};

/** Events one statement appended to a session, and the id of the session's event before them. */
export type AppendedEvents = {
  previousId: string | null;
  events: SessionEventDto[];
};
