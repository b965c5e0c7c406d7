// Superseding a turn for a restart, in one transaction: only the chat's latest turn, only if the
// session's active slot is free or held by it (then the new turn takes the slot); the old turn
// becomes `superseded` (the owning instance stops it on the notification), its pending approvals
// expire, the new turn's row is created, and the old turn is settled and, for apply now, cut back to
// its last consistent point (kept-rounds.ts, cut-back.ts). The old turn's row is updated by the
// transaction's first statement, before the cut reads anything: that row lock makes a tool message
// the old run is about to append wait for this transaction, and then not be written (transcript.ts,
// appendTurnToolMessage), so the cut sees every stored round.
// Nothing is appended here: the old turn's events (its settled calls, then `turn.finished`) and the
// new turn's (its kept copies) are returned for the caller to append around the new turn's
// `turn.started`, in one statement.
// Raw SQL on one pooled connection (sql-transaction.ts), not a Prisma interactive transaction: it is
// on Apply now's path to the restarted request. BEGIN, the supersede, the settle's read and (when
// anything is to be written) its insert, COMMIT.
import { poolOf, type Db } from "../db/client.ts";
import { inSqlTransaction } from "../db/sql-transaction.ts";
import { AppError } from "../errors.ts";
import { settleSupersededTurn, type SettledTurn } from "./kept-rounds.ts";
import { NOW } from "./turn-sql.ts";

export type SupersededTurn = { id: string; sessionId: string; status: string };

export type RestartWrite = {
  old: SupersededTurn;
  /** The new turn's row (its id, lease, model; `restartOfId` is set here). */
  newTurn: {
    id: string;
    userMessageId: string;
    historySeq: number;
    provider: string;
    model: string;
    providerAccountId: string | null;
    leaseOwner: string;
    leaseExpiresAt: Date;
  };
  /** Apply now: the restarted turn continues from the old turn's complete tool rounds. */
  keepFinishedRounds: boolean;
};

/**
 * The supersede's writes, in ONE statement (they were six round trips): the old turn's row first
 * (only if it is the chat's latest turn), then the session's slot (only if free or the old turn's),
 * the old turn's pending approvals and questions (as expirePendingApprovals / expirePendingQuestions
 * do elsewhere), and the new turn's row. Nothing past the old turn's row is written unless its step
 * matched; the caller reads which one failed. (Data-modifying CTEs run whether or not the final
 * SELECT reads them.)
 */
const SUPERSEDE = `WITH latest AS (
    SELECT "id", "status"::text AS "status" FROM "Turn" WHERE "sessionId" = $2::text ORDER BY "startedAt" DESC LIMIT 1
  ), old AS (
    UPDATE "Turn" t SET "status" = 'superseded'::"TurnStatus",
      "cancelRequested" = CASE WHEN latest."status" = 'streaming' THEN 'superseded'::"TurnStatus" END,
      "endedAt" = CASE WHEN latest."status" = 'streaming' THEN ${NOW} ELSE t."endedAt" END,
      "leaseOwner" = NULL, "leaseExpiresAt" = NULL
    FROM latest WHERE t."id" = $1::text AND latest."id" = $1::text
    RETURNING t."id"
  ), swapped AS (
    UPDATE "ChatSession" SET "activeTurnId" = $3::text, "updatedAt" = ${NOW}
    WHERE "id" = $2::text AND ("activeTurnId" = $1::text OR "activeTurnId" IS NULL) AND EXISTS (SELECT 1 FROM old)
    RETURNING "id"
  ), approvals AS (
    UPDATE "ToolApproval" SET "status" = 'expired'::"ToolApprovalStatus", "decidedAt" = ${NOW}
    WHERE "turnId" = $1::text AND "status" = 'pending'::"ToolApprovalStatus" AND EXISTS (SELECT 1 FROM swapped)
  ), questions AS (
    UPDATE "FollowupQuestion" SET "status" = 'expired'::"FollowupQuestionStatus"
    WHERE "turnId" = $1::text AND "status" = 'pending'::"FollowupQuestionStatus" AND EXISTS (SELECT 1 FROM swapped)
  ), created AS (
    INSERT INTO "Turn" ("id", "sessionId", "userMessageId", "historySeq", "provider", "model", "providerAccountId",
      "restartOfId", "leaseOwner", "leaseExpiresAt", "startedAt")
    SELECT $3::text, $2::text, $4::text, $5::int, $6::text, $7::text, $8::text, $1::text, $9::text,
      $10::timestamptz AT TIME ZONE 'UTC', ${NOW}
    FROM swapped
  )
  SELECT (SELECT count(*) FROM old)::int AS "isLatest", (SELECT count(*) FROM swapped)::int AS "isSwapped"`;

export async function supersedeForRestart(db: Db, write: RestartWrite): Promise<SettledTurn> {
  const { old, newTurn } = write;
  const settled = await inSqlTransaction(poolOf(db), async (client) => {
    const { rows } = await client.query<{ isLatest: number; isSwapped: number }>(SUPERSEDE, [
      old.id,
      old.sessionId,
      newTurn.id,
      newTurn.userMessageId,
      newTurn.historySeq,
      newTurn.provider,
      newTurn.model,
      newTurn.providerAccountId,
      newTurn.leaseOwner,
      newTurn.leaseExpiresAt.toISOString(), // with its zone: read as timestamptz
    ]);
    const result = rows[0];
    if (!result?.isLatest) throw new AppError("conflict:turn", "Only the latest turn of a chat can be restarted.");
    if (!result.isSwapped) throw new AppError("conflict:turn");
    return settleSupersededTurn(client, old, write.keepFinishedRounds ? newTurn.id : null);
  });
  const finished = { turnId: old.id, status: "superseded", supersededBy: newTurn.id };
  const oldEvents = [...settled.oldEvents, { type: "turn.finished" as const, data: finished }];
  return { ...settled, oldEvents: oldEvents.map((event) => ({ ...event, turnId: old.id })) };
}
