// Pending subscription sign-ins (ProviderLogin rows): the PKCE verifier and state of a code-paste
// flow, or the device code of the ChatGPT flow, sealed at rest, owned by one user, and gone once the
// sign-in completes, is cancelled or expires. Any instance can finish a sign-in another one started.
import type { Db } from "../../db/client.ts";
import { openSecret, sealSecret } from "../../crypto/secrets.ts";
import { AppError } from "../../errors.ts";
import type { SubscriptionFlow } from "./flows.ts";

export type PendingLogin<S> = {
  id: string;
  flow: SubscriptionFlow;
  secrets: S;
  intervalMs: number | null;
  nextPollAt: Date | null;
  expiresAt: Date;
};

type NewLogin<S> = { flow: SubscriptionFlow; secrets: S; expiresAt: Date; intervalMs?: number; nextPollAt?: Date };

export async function createLogin<S>(db: Db, ownerId: string, login: NewLogin<S>): Promise<{ id: string }> {
  await db.providerLogin.deleteMany({ where: { ownerId, expiresAt: { lt: new Date() } } });
  return db.providerLogin.create({
    data: {
      ownerId,
      flow: login.flow,
      secrets: await sealSecret(JSON.stringify(login.secrets)),
      expiresAt: login.expiresAt,
      intervalMs: login.intervalMs ?? null,
      nextPollAt: login.nextPollAt ?? null,
    },
    select: { id: true },
  });
}

/** The user's pending sign-in of that flow; an expired one is deleted and reported as expired. */
export async function loadLogin<S>(
  db: Db,
  ownerId: string,
  loginId: string,
  now = new Date(),
): Promise<PendingLogin<S>> {
  const row = await db.providerLogin.findFirst({ where: { id: loginId, ownerId } });
  if (!row) throw new AppError("not_found:provider", "That sign-in is not in progress any more; start it again.");
  if (row.expiresAt <= now) {
    await db.providerLogin.deleteMany({ where: { id: row.id } });
    throw new AppError("bad_request:provider", "That sign-in took too long and expired; start it again.");
  }
  return {
    id: row.id,
    flow: row.flow as SubscriptionFlow,
    secrets: JSON.parse(await openSecret(row.secrets)) as S,
    intervalMs: row.intervalMs,
    nextPollAt: row.nextPollAt,
    expiresAt: row.expiresAt,
  };
}

export async function deleteLogin(db: Db, ownerId: string, loginId: string): Promise<void> {
  await db.providerLogin.deleteMany({ where: { id: loginId, ownerId } });
}

/**
 * Claims the next device poll: true when no poll is due later than `now`, and then the next one is
 * moved to `now + intervalMs`. Atomic, so two tabs or two instances never poll the vendor together.
 */
export async function claimPoll(db: Db, loginId: string, intervalMs: number, now = new Date()): Promise<boolean> {
  const { count } = await db.providerLogin.updateMany({
    where: { id: loginId, OR: [{ nextPollAt: null }, { nextPollAt: { lte: now } }] },
    data: { intervalMs, nextPollAt: new Date(now.getTime() + intervalMs) },
  });
  return count === 1;
}

/** Slows polling down after the vendor said so (HTTP 429). */
export async function slowDownPolls(db: Db, loginId: string, intervalMs: number, now = new Date()): Promise<void> {
  await db.providerLogin.updateMany({
    where: { id: loginId },
    data: { intervalMs, nextPollAt: new Date(now.getTime() + intervalMs) },
  });
}

/** Removes the login and answers whether this caller was the one to remove it (finishes it once). */
export async function takeLogin(db: Db, loginId: string): Promise<boolean> {
  const { count } = await db.providerLogin.deleteMany({ where: { id: loginId } });
  return count === 1;
}
