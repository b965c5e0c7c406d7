// Canonical chat I/O: reads a session's history as CanonicalMessages (validated) and writes new
// messages with gap-free sequence numbers. Messages of superseded turns and user messages replaced
// by an edit (edit-resend.ts) stay stored (the browser shows them, collapsed) but are never part
// of what a model is sent.
import { poolOf, type Db } from "../db.ts";
import { AppError } from "../errors.ts";
import {
  assistantPartSchema,
  toolPartSchema,
  userPartSchema,
  type AssistantPart,
  type CanonicalMessage,
  type TextPart,
  type ToolResultPart,
} from "./canonical.ts";

/** The metadata of a user message replaced by an edit: the id of the message that replaced it. */
export type ReplacedMetadata = { replacedBy: string };

export function isReplacedMessage(row: { metadata?: unknown }): boolean {
  const metadata = row.metadata as Partial<ReplacedMetadata> | null | undefined;
  return typeof metadata?.replacedBy === "string";
}

type MessageRow = { id: string; role: "user" | "assistant" | "tool"; parts: unknown; turnId: string | null };

export function toCanonicalMessage(row: MessageRow): CanonicalMessage {
  const parts = Array.isArray(row.parts) ? row.parts : [];
  try {
    if (row.role === "user") return { id: row.id, role: "user", parts: parts.map((p) => userPartSchema.parse(p)) };
    if (row.role === "tool") return { id: row.id, role: "tool", parts: parts.map((p) => toolPartSchema.parse(p)) };
    return { id: row.id, role: "assistant", parts: parts.map((p) => assistantPartSchema.parse(p)) };
  } catch (error) {
    throw new AppError("internal:session", undefined, { cause: error });
  }
}

/**
 * The history a turn renders from: every message up to `historySeq`, minus those of superseded
 * turns and replaced user messages, plus the turn's own messages (its tool rounds so far), in
 * sequence order. Read before every model request, so it is one raw statement on the client's pool
 * (as the other hot-path SQL, see event-store.ts) rather than a Prisma query.
 */
export async function loadTurnHistory(
  db: Db,
  turn: { id: string; sessionId: string; historySeq: number },
): Promise<CanonicalMessage[]> {
  const { rows } = await poolOf(db).query<MessageRow & { metadata: unknown }>(
    `SELECT m."id", m."role", m."parts", m."turnId", m."metadata"
    FROM "Message" m LEFT JOIN "Turn" t ON t."id" = m."turnId"
    WHERE m."sessionId" = $1
      AND ((m."seq" <= $2 AND (m."turnId" IS NULL OR t."status" <> 'superseded')) OR m."turnId" = $3)
    ORDER BY m."seq"`,
    [turn.sessionId, turn.historySeq, turn.id],
  );
  return rows.filter((row) => !isReplacedMessage(row)).map(toCanonicalMessage);
}

async function nextSeq(db: Db, sessionId: string): Promise<number> {
  const last = await db.message.findFirst({ where: { sessionId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return (last?.seq ?? 0) + 1;
}

type NewMessage =
  | { role: "user"; parts: TextPart[] }
  | { role: "assistant"; parts: AssistantPart[] }
  | { role: "tool"; parts: ToolResultPart[] };

/** Appends a message at the end of the session's history. Only the session's holder writes. */
export async function appendMessage(
  db: Db,
  sessionId: string,
  turnId: string | null,
  message: NewMessage,
): Promise<{ id: string; seq: number }> {
  const seq = await nextSeq(db, sessionId);
  return db.message.create({
    data: { sessionId, turnId, seq, role: message.role, parts: message.parts },
    select: { id: true, seq: true },
  });
}
