// A turn as its owner may act on it (stop, regenerate, apply now): found only through a chat of
// `ownerId`, so anyone else's turn id is not_found:turn, never a hint that it exists.
import { poolOf, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { turnSelect } from "./turn-end.ts";

export async function ownedTurn(db: Db, ownerId: string, turnId: string) {
  const turn = await db.turn.findFirst({ where: { id: turnId, session: { ownerId } }, select: turnSelect });
  if (!turn) throw new AppError("not_found:turn");
  return turn;
}

type TurnRow = Awaited<ReturnType<typeof ownedTurn>>;
type SessionRow = {
  provider: string | null;
  model: string | null;
  providerAccountId: string | null;
  /** The system prompt of the chat's persona, if it has one. */
  personaPrompt: string | null;
};

/**
 * ownedTurn, with its chat's stored model choice and persona prompt: one statement (Prisma
 * relation selects would be two, and the persona a third, on the way to Apply now's restarted
 * request).
 */
export async function ownedTurnWithModel(
  db: Db,
  ownerId: string,
  turnId: string,
): Promise<TurnRow & { session: SessionRow }> {
  const { rows } = await poolOf(db).query<
    TurnRow & {
      sessionProvider: string | null;
      sessionModel: string | null;
      sessionAccountId: string | null;
      personaPrompt: string | null;
    }
  >(
    `SELECT t."id", t."sessionId", t."userMessageId", t."historySeq", t."status"::text AS "status",
            t."provider", t."model", t."providerAccountId", t."restartOfId",
            t."cancelRequested"::text AS "cancelRequested", t."leaseOwner",
            s."provider" AS "sessionProvider", s."model" AS "sessionModel", s."providerAccountId" AS "sessionAccountId",
            p."systemPrompt" AS "personaPrompt"
       FROM "Turn" t JOIN "ChatSession" s ON s."id" = t."sessionId" LEFT JOIN "Persona" p ON p."id" = s."personaId"
      WHERE t."id" = $1 AND s."ownerId" = $2`,
    [turnId, ownerId],
  );
  const row = rows[0];
  if (!row) throw new AppError("not_found:turn");
  const { sessionProvider, sessionModel, sessionAccountId, personaPrompt, ...turn } = row;
  const session = { provider: sessionProvider, model: sessionModel, providerAccountId: sessionAccountId };
  return { ...turn, session: { ...session, personaPrompt } };
}
