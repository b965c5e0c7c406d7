// The writes of a turn on the streaming hot path, each ONE statement of raw parameterised SQL on the
// client's pg pool (see event-log.ts for why and for the event contract): starting a turn (claim
// the session, store the user message and the turn, announce them) and the bookkeeping around each
// model request (its audit row, the assistant message, their events; then its outcome and the
// message's final parts). Each statement writes rows and the events announcing them together, so a
// history read never holds an event whose rows it lacks, or the reverse. Message sequence numbers
// are max + 1 within the statement: only the session's holder writes messages. Timestamps are UTC.
import { randomUUID } from "node:crypto";

import { poolOf, type Db } from "../db/client.ts";
import { DEFAULT_SESSION_TITLE } from "../db/chat-sessions.ts";
import { appendedColumns, appendEventsCtes, deliverAppended, type AppendedRow, type EventInput } from "./event-log.ts";
import { nextEventIdsSql, RESERVED_IDS } from "./event-ids.ts";
import { overlaysFrom, overlaysJsonSql, type OverlayDto } from "./overlays.ts";
import { historyFrom, historyRowJsonSql, NOT_SUPERSEDED_SQL, type HistoryRow } from "./transcript.ts";
import type { TurnOpening } from "./turn-spec.ts";
import { runStatement, statement } from "../db/statements.ts";

export const NOW = `now() AT TIME ZONE 'UTC'`;
export const NEXT_SEQ = (session: string) =>
  `COALESCE((SELECT max(seq) FROM "Message" WHERE "sessionId" = ${session}), 0) + 1`;

export const newRowId = (): string => randomUUID();

export type StartedTurn = {
  title: string;
  historySeq: number;
  userMessageId: string;
  systemPrompt: string | null;
  opening: TurnOpening;
};

/** The statement of startTurnRows; its parameters are listed there. */
const START_TURN_SQL = statement(
  "start_turn",
  `WITH claimed AS (
    UPDATE "ChatSession" SET "activeTurnId" = $1::text, "provider" = $4::text, "model" = $5::text,
      "providerAccountId" = $6::text, "updatedAt" = ${NOW},
      "title" = CASE WHEN "title" = '${DEFAULT_SESSION_TITLE}' THEN $7::text ELSE "title" END
    WHERE id = $2::text AND "ownerId" = $3::text AND "activeTurnId" IS NULL
    RETURNING "id", "title", "personaId", "toolsRevision", "overlayRevision"
  ), prior AS (
    SELECT COALESCE(json_agg(${historyRowJsonSql("m")} ORDER BY m."seq"), '[]') AS "rows"
    FROM "Message" m LEFT JOIN "Turn" t ON t."id" = m."turnId"
    WHERE m."sessionId" = $2::text AND ${NOT_SUPERSEDED_SQL} AND EXISTS (SELECT 1 FROM claimed)
  ), message AS (
    INSERT INTO "Message" ("id", "sessionId", "seq", "role", "parts", "createdAt", "updatedAt")
    SELECT $8::text, $2::text, ${NEXT_SEQ("$2::text")}, 'user'::"MessageRole", $9::jsonb, ${NOW}, ${NOW}
    FROM claimed
    RETURNING "seq"
  ), turn AS (
    INSERT INTO "Turn" ("id", "sessionId", "userMessageId", "historySeq", "provider", "model",
      "providerAccountId", "leaseOwner", "leaseExpiresAt", "startedAt")
    SELECT $1::text, $2::text, $8::text, message.seq, $4::text, $5::text, $6::text, $10::text,
      $11::timestamptz AT TIME ZONE 'UTC', ${NOW}
    FROM message
    RETURNING "id"
  ), ${appendEventsCtes({
    sessionId: "$2::text",
    turnId: "$1::text",
    events: `(SELECT jsonb_build_array(
        jsonb_build_object('type', 'user.message',
          'data', jsonb_build_object('messageId', $8::text, 'text', $12::text, 'title', claimed."title")),
        jsonb_build_object('type', 'turn.started', 'data', $13::jsonb)) FROM claimed)`,
  })}, reserved AS (
    SELECT COALESCE(json_agg(r.id::text ORDER BY r.id), '[]') AS ids
    FROM (${nextEventIdsSql(String(RESERVED_IDS))} WHERE (SELECT count(*) FROM appended) > 0) r
  )
  SELECT claimed."title", message.seq AS "historySeq", persona."systemPrompt",
    claimed."toolsRevision", claimed."overlayRevision", ${overlaysJsonSql("claimed")} AS overlays,
    prior."rows" AS "priorMessages", reserved.ids AS "eventIds", (SELECT count(*) FROM turn) AS turns,
    ${appendedColumns("$2::text")}
  FROM claimed CROSS JOIN message CROSS JOIN prior CROSS JOIN reserved
    LEFT JOIN "Persona" persona ON persona.id = claimed."personaId"`,
);

/**
 * Claims the session for a new turn (only if the owner's session has no active turn), records the
 * model choice and, on a "New chat", the title from `title`; appends the user message and the turn
 * (leased to `leaseOwner` until `leaseExpiresAt`); and appends `user.message` + `turn.started`.
 * It also reads, in the same snapshot, what the turn's first model request needs (`opening`: the
 * history the model is sent, as loadTurnHistory reads it, the overlays and the tool revision) and
 * reserves the turn's first block of event ids (event-ids.ts; drawn after its own events'), so that
 * request makes no round trip of its own. Null, with nothing written, when the session is not the
 * owner's or another turn holds it.
 */
export async function startTurnRows(
  db: Db,
  turn: {
    id: string;
    sessionId: string;
    ownerId: string;
    provider: string;
    model: string;
    accountId: string | null;
    text: string;
    title: string;
    leaseOwner: string;
    leaseExpiresAt: Date;
  },
): Promise<StartedTurn | null> {
  const userMessageId = newRowId();
  const started = { turnId: turn.id, provider: turn.provider, model: turn.model, userMessageId, restartOf: null };
  const { rows } = await runStatement<AppendedRow & StartedRow>(poolOf(db), START_TURN_SQL, [
    turn.id,
    turn.sessionId,
    turn.ownerId,
    turn.provider,
    turn.model,
    turn.accountId,
    turn.title,
    userMessageId,
    JSON.stringify([{ type: "text", text: turn.text }]),
    turn.leaseOwner,
    turn.leaseExpiresAt,
    turn.text,
    JSON.stringify(started),
  ]);
  const row = rows[0];
  if (!row) return null;
  deliverAppended(db, turn.sessionId, row);
  const opening = openingOf(row, { id: userMessageId, role: "user", parts: [{ type: "text", text: turn.text }] });
  return { title: row.title, historySeq: row.historySeq, systemPrompt: row.systemPrompt, userMessageId, opening };
}

/** The first request's inputs from the claim's row: the history before the turn, then its user message. */
function openingOf(row: StartedRow, userMessage: Omit<HistoryRow, "turnId" | "metadata">): TurnOpening {
  return {
    history: historyFrom([...row.priorMessages, { ...userMessage, turnId: null, metadata: null }]),
    overlays: { revision: row.overlayRevision, overlays: overlaysFrom(row.overlays) },
    toolsRevision: row.toolsRevision,
    eventIds: row.eventIds,
  };
}

type StartedRow = {
  title: string;
  historySeq: number;
  systemPrompt: string | null;
  toolsRevision: number;
  overlayRevision: number;
  overlays: (OverlayDto & { createdAt: string })[];
  priorMessages: HistoryRow[];
  eventIds: string[];
};

/**
 * The end of a model request: its outcome on the audit row (finish reason, token usage, duration;
 * and the turn's time to first token on its first request), and — unless `message` is null (the turn was aborted: nothing more of it is
 * written) — the message's final parts with `events` that describe them (e.g. `message.updated`).
 */
export async function recordRequestEnd(
  db: Db,
  end: {
    requestId: string;
    turnId: string;
    sessionId: string;
    isFirstRequest: boolean;
    firstTokenAt: Date | null;
    finishReason: string | null;
    usage: { inputTokens?: number; outputTokens?: number };
    /** From sending the request to the end of its stream, on this instance's clock. */
    durationMs: number;
    message: { id: string; parts: unknown[]; events: EventInput[] } | null;
  },
): Promise<void> {
  const { rows } = await runStatement<AppendedRow>(poolOf(db), REQUEST_END_SQL, [
    end.requestId,
    end.firstTokenAt,
    end.finishReason,
    end.usage.inputTokens ?? null,
    end.usage.outputTokens ?? null,
    end.turnId,
    end.isFirstRequest,
    end.message?.id ?? null,
    end.message ? JSON.stringify(end.message.parts) : null,
    end.sessionId,
    JSON.stringify(end.message?.events ?? []),
    end.durationMs,
  ]);
  deliverAppended(db, end.sessionId, rows[0]);
}

const REQUEST_END_SQL = statement(
  "request_end",
  `WITH message AS (
      UPDATE "Message" SET "parts" = $9::jsonb, "updatedAt" = ${NOW} WHERE id = $8::text AND $9::jsonb IS NOT NULL
      RETURNING "id"
    ), request AS (
      UPDATE "TurnRequest" SET "endedAt" = ${NOW}, "firstTokenAt" = $2::timestamptz AT TIME ZONE 'UTC',
        "finishReason" = $3::text, "inputTokens" = $4::int, "outputTokens" = $5::int, "durationMs" = $12::int
      WHERE id = $1::text
      RETURNING "id"
    ), turn AS (
      UPDATE "Turn" SET "firstTokenAt" = $2::timestamptz AT TIME ZONE 'UTC'
      WHERE id = $6::text AND $7::boolean AND $2::timestamptz IS NOT NULL
      RETURNING "id"
    ), ${appendEventsCtes({ sessionId: "$10::text", turnId: "$6::text", events: "$11::jsonb" })}
    SELECT (SELECT count(*) FROM message) AS messages, (SELECT count(*) FROM request) AS requests,
      (SELECT count(*) FROM turn) AS turns, ${appendedColumns("$10::text")}`,
);

/**
 * Ends a streaming turn with `end` (status, and error / usage when given), expires its pending tool
 * approvals and followup questions (as policy/approvals.ts and policy/followup-questions.ts), frees the session if this turn holds
 * it, and appends `turn.finished`; nothing at all when the turn had already ended (someone else
 * wrote its status). True when this call ended it.
 */
export async function finishTurnRows(
  db: Db,
  turn: { id: string; sessionId: string },
  end: {
    status: string;
    error?: { code: string; message: string } | null;
    usage?: { inputTokens: number; outputTokens: number };
  },
): Promise<boolean> {
  const finished = { turnId: turn.id, status: end.status, error: end.error ?? null, usage: end.usage ?? null };
  const { rows } = await runStatement<AppendedRow & { ended: string }>(poolOf(db), FINISH_TURN_SQL, [
    turn.id,
    turn.sessionId,
    end.status,
    end.error ? JSON.stringify(end.error) : null,
    end.usage?.inputTokens ?? null,
    end.usage?.outputTokens ?? null,
    JSON.stringify(finished),
  ]);
  deliverAppended(db, turn.sessionId, rows[0]);
  return Number(rows[0]?.ended) === 1;
}

const FINISH_TURN_SQL = statement(
  "finish_turn",
  `WITH ended AS (
      UPDATE "Turn" SET "status" = $3::"TurnStatus", "endedAt" = ${NOW}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "error" = COALESCE($4::jsonb, "error"), "inputTokens" = COALESCE($5::int, "inputTokens"),
        "outputTokens" = COALESCE($6::int, "outputTokens")
      WHERE id = $1::text AND "status" = 'streaming'
      RETURNING "id"
    ), expired AS (
      UPDATE "ToolApproval" SET "status" = 'expired', "decidedAt" = ${NOW}
      WHERE "turnId" = $1::text AND "status" = 'pending' AND EXISTS (SELECT FROM ended)
      RETURNING "id"
    ), expired_questions AS (
      UPDATE "FollowupQuestion" SET "status" = 'expired'
      WHERE "turnId" = $1::text AND "status" = 'pending' AND EXISTS (SELECT FROM ended)
      RETURNING "id"
    ), released AS (
      UPDATE "ChatSession" SET "activeTurnId" = NULL, "updatedAt" = ${NOW}
      WHERE id = $2::text AND "activeTurnId" = $1::text AND EXISTS (SELECT FROM ended)
      RETURNING "id"
    ), ${appendEventsCtes({
      sessionId: "$2::text",
      turnId: "$1::text",
      events: `(SELECT jsonb_build_array(jsonb_build_object('type', 'turn.finished', 'data', $7::jsonb)) FROM ended)`,
    })}
    SELECT (SELECT count(*) FROM ended) AS ended, (SELECT count(*) FROM expired) AS expired,
      (SELECT count(*) FROM expired_questions) AS expired_questions,
      (SELECT count(*) FROM released) AS released, ${appendedColumns("$2::text")}`,
);
