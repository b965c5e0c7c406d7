// What a turn runs on, read for the session manager: the model choice (provider, model, account) a
// chat last used, whether a chosen provider account may be used, and the chat's persona prompt.
import type { Db } from "../db/client.ts";
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
  const row = await db.chatSession.findUnique({
    where: { id: sessionId },
    select: { persona: { select: { systemPrompt: true } } },
  });
  return row?.persona?.systemPrompt ?? null;
}

/** The model choice the chat last used, if any. */
export async function sessionModel(db: Db, sessionId: string): Promise<ModelChoice | null> {
  const row = await db.chatSession.findUnique({
    where: { id: sessionId },
    select: { provider: true, model: true, providerAccountId: true },
  });
  return row?.provider && row.model
    ? { provider: row.provider as ProviderId, model: row.model, accountId: row.providerAccountId }
    : null;
}

/** A chosen account must be the user's own and speak the chosen provider's wire format. */
export async function assertUsableAccount(db: Db, ownerId: string, model: TurnModel): Promise<void> {
  if (!model.accountId) return;
  const account = await db.providerAccount.findFirst({
    where: { id: model.accountId, ownerId },
    select: { provider: true },
  });
  if (!account) throw new AppError("not_found:provider", "That provider account was not found.");
  if (account.provider !== model.provider)
    throw new AppError("bad_request:provider", "That account belongs to another provider.");
}
