// A turn as its owner may act on it (stop, regenerate, apply now): found only through a chat of
// `ownerId`, so anyone else's turn id is not_found:turn, never a hint that it exists.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { turnSelect } from "./turn-end.ts";
import { MODEL_COLUMNS } from "./turn-models.ts";

export async function ownedTurn(db: Db, ownerId: string, turnId: string) {
  const turn = await db.turn.findFirst({ where: { id: turnId, session: { ownerId } }, select: turnSelect });
  if (!turn) throw new AppError("not_found:turn");
  return turn;
}

/** ownedTurn, with its chat's stored model choice (one read). */
export async function ownedTurnWithModel(db: Db, ownerId: string, turnId: string) {
  const turn = await db.turn.findFirst({
    where: { id: turnId, session: { ownerId } },
    select: { ...turnSelect, session: { select: MODEL_COLUMNS } },
  });
  if (!turn) throw new AppError("not_found:turn");
  return turn;
}
