// What a turn runs on, read for the session manager: the model choice (provider, model, account) a
// chat last used, whether a choice may be used, and the chat's persona prompt. A choice is only ever
// run when its model is one the chosen account offers (its stored model list) or, without an
// account, one the server offers for that provider (`*_MODELS` of a configured provider): the
// model id is free text from the browser and runs on someone's key.
import { poolOf, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ProviderId } from "../core/canonical.ts";

/** What a turn runs on: provider (wire format), model, and the user's account (null: the server's key). */
export type ModelChoice = { provider: ProviderId; model: string; accountId?: string | null };

/** A ModelChoice as a turn row stores it. */
export type TurnModel = { provider: ProviderId; model: string; accountId: string | null };

export function normalizeChoice(choice: ModelChoice | null): TurnModel | null {
  return choice ? { provider: choice.provider, model: choice.model, accountId: choice.accountId ?? null } : null;
}

/** The chat's persona prompt, or null when it has no persona. */
export async function personaPrompt(db: Db, sessionId: string): Promise<string | null> {
  // One statement (a Prisma relation select is two, one after the other, on every turn start).
  const { rows } = await poolOf(db).query<{ systemPrompt: string }>(
    `SELECT p."systemPrompt" FROM "ChatSession" s JOIN "Persona" p ON p."id" = s."personaId" WHERE s."id" = $1`,
    [sessionId],
  );
  return rows[0]?.systemPrompt ?? null;
}

/** The model choice the chat last used, if any. */
export async function sessionModel(db: Db, sessionId: string): Promise<ModelChoice | null> {
  const row = await db.chatSession.findUnique({ where: { id: sessionId }, select: MODEL_COLUMNS });
  return row ? storedChoice(row) : null;
}

/** The same, of `ownerId`'s chat only (one read): not_found:session for anyone else's. */
export async function ownedSessionModel(db: Db, ownerId: string, sessionId: string): Promise<ModelChoice | null> {
  const row = await db.chatSession.findFirst({ where: { id: sessionId, ownerId }, select: MODEL_COLUMNS });
  if (!row) throw new AppError("not_found:session");
  return storedChoice(row);
}

export const MODEL_COLUMNS = { provider: true, model: true, providerAccountId: true } as const;

/** The choice a chat row stores (provider + model), or null when it has none. */
export function storedChoice(row: { provider: string | null; model: string | null; providerAccountId: string | null }) {
  return row.provider && row.model
    ? { provider: row.provider as ProviderId, model: row.model, accountId: row.providerAccountId }
    : null;
}

/** The models the server itself offers for a provider (none when it is not configured). */
export type ServerModels = (provider: ProviderId) => readonly string[];

function notOffered(model: string, where: string): AppError {
  const shown = model.length > 80 ? `${model.slice(0, 80)}…` : model;
  return new AppError(
    "bad_request:provider",
    `The model "${shown}" is not offered by ${where}. Pick a model from the list for this chat.`,
  );
}

/**
 * A choice is usable when its account is the user's own, speaks the chosen provider's wire format
 * and lists the model, or (no account) when the server offers the model for that provider.
 */
export async function assertOfferedModel(
  db: Db,
  ownerId: string,
  model: TurnModel,
  serverModels: ServerModels,
): Promise<void> {
  if (!model.accountId) {
    if (!serverModels(model.provider).includes(model.model)) throw notOffered(model.model, "this server");
    return;
  }
  const account = await db.providerAccount.findFirst({
    where: { id: model.accountId, ownerId },
    select: { provider: true, models: true, label: true },
  });
  if (!account) throw new AppError("not_found:provider", "That provider account was not found.");
  if (account.provider !== model.provider)
    throw new AppError("bad_request:provider", "That account belongs to another provider.");
  if (!account.models.includes(model.model)) throw notOffered(model.model, `your account "${account.label}"`);
}
