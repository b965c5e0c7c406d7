// Canonical chat I/O: reads a session's history as CanonicalMessages (validated) and writes new
// messages with gap-free sequence numbers. Messages of superseded turns and user messages replaced
// by an edit (edit-resend.ts) stay stored (the browser shows them, collapsed) but are never part
// of what a model is sent; the complete tool rounds apply now keeps reach the restarted turn as
// copies of its own (kept-rounds.ts, `metadata.keptFrom`).
import { randomUUID } from "node:crypto";

import { poolOf, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  assistantPartSchema,
  toolPartSchema,
  userPartSchema,
  type AssistantPart,
  type CanonicalMessage,
  type TextPart,
  type ToolResultPart,
} from "../core/canonical.ts";
import { runStatement, statement } from "../db/statements.ts";

/** The metadata of a user message replaced by an edit: the id of the message that replaced it. */
export type ReplacedMetadata = { replacedBy: string };

export function isReplacedMessage(row: { metadata?: unknown }): boolean {
  const metadata = row.metadata as Partial<ReplacedMetadata> | null | undefined;
  return typeof metadata?.replacedBy === "string";
}

/** The metadata of a message apply now copied into the restarted turn: the message it copies. */
export type KeptMetadata = { keptFrom: string };

export function keptFromOf(row: { metadata?: unknown }): string | null {
  const metadata = row.metadata as Partial<KeptMetadata> | null | undefined;
  return typeof metadata?.keptFrom === "string" ? metadata.keptFrom : null;
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
 * (as the other hot-path SQL, see event-log.ts) rather than a Prisma query.
 */
export async function loadTurnHistory(
  db: Db,
  turn: { id: string; sessionId: string; historySeq: number },
): Promise<CanonicalMessage[]> {
  const { rows } = await runStatement<HistoryRow>(poolOf(db), TURN_HISTORY_SQL, [
    turn.sessionId,
    turn.historySeq,
    turn.id,
  ]);
  return historyFrom(rows);
}

/** A stored message as the history reads it (also as json: historyRowJsonSql). */
export type HistoryRow = MessageRow & { metadata: unknown };

/** SQL: a message row `m` as the json of a HistoryRow (for statements that read messages beside other work). */
export const historyRowJsonSql = (m: string) =>
  `json_build_object('id', ${m}."id", 'role', ${m}."role", 'parts', ${m}."parts", 'turnId', ${m}."turnId",
    'metadata', ${m}."metadata")`;

/** SQL: message `m` (joined to its turn as `t`) is not of a superseded turn, so a model may be sent it. */
export const NOT_SUPERSEDED_SQL = `(m."turnId" IS NULL OR t."status" <> 'superseded')`;

const TURN_HISTORY_SQL = statement(
  "turn_history",
  `SELECT m."id", m."role", m."parts", m."turnId", m."metadata"
  FROM "Message" m LEFT JOIN "Turn" t ON t."id" = m."turnId"
  WHERE m."sessionId" = $1 AND ((m."seq" <= $2 AND ${NOT_SUPERSEDED_SQL}) OR m."turnId" = $3)
  ORDER BY m."seq"`,
);

/** The messages a model is sent, from stored rows in sequence order (replaced user messages left out). */
export function historyFrom(rows: HistoryRow[]): CanonicalMessage[] {
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

/**
 * Appends a turn's tool message, only while the turn is still streaming: one statement that takes
 * a share lock on the turn row, so it waits for a restart that is superseding the turn (restart.ts
 * holds the row while it cuts the turn back) and then writes nothing. Null when nothing was written.
 */
export async function appendTurnToolMessage(
  db: Db,
  turn: { id: string; sessionId: string },
  parts: ToolResultPart[],
): Promise<{ id: string; seq: number } | null> {
  const { rows } = await poolOf(db).query<{ id: string; seq: number }>(
    `WITH live AS (
      SELECT id FROM "Turn" WHERE id = $2::text AND "status" = 'streaming' FOR SHARE
    )
    INSERT INTO "Message" ("id", "sessionId", "turnId", "seq", "role", "parts", "createdAt", "updatedAt")
    SELECT $3::text, $1::text, live.id,
      COALESCE((SELECT max(seq) FROM "Message" WHERE "sessionId" = $1::text), 0) + 1,
      'tool'::"MessageRole", $4::jsonb, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
    FROM live
    RETURNING "id", "seq"`,
    [turn.sessionId, turn.id, randomUUID(), JSON.stringify(parts)],
  );
  return rows[0] ?? null;
}

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
