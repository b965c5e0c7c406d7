// Edit and resend: the user rewrites the chat's last message and gets a fresh answer to the new
// text. The old message and every turn that answered it stay stored (the browser shows them
// collapsed, marked as edited), but they leave the canonical history: the old user message carries
// `metadata.replacedBy` (see isReplacedMessage, which loadTurnHistory honours) and its turns become
// `superseded`. The new message is appended at the end, so sequence numbers stay gap-free, and the
// new turn renders from it plus everything before the old message.
//
// Only the last user message can be edited, and only while no answer is being written (the claim
// of the session's active-turn slot decides races, exactly as for a send).
import type { Db } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { AppError } from "../errors.ts";
import { appendEvent } from "./event-log.ts";
import { appendMessage, isReplacedMessage, type ReplacedMetadata } from "./transcript.ts";

export type EditTarget = { id: string; sessionId: string; seq: number; metadata: unknown };

/** The user's message if it is their chat's last (not yet replaced) user message, else an AppError. */
export async function findEditableMessage(db: Db, ownerId: string, messageId: string): Promise<EditTarget> {
  const message = await db.message.findFirst({
    where: { id: messageId, role: "user", session: { ownerId } },
    select: { id: true, sessionId: true, seq: true, metadata: true },
  });
  if (!message) throw new AppError("not_found:session", "That message does not exist or is not yours.");
  await assertLastUserMessage(db, message);
  return message;
}

async function assertLastUserMessage(db: Db, message: EditTarget): Promise<void> {
  const later = await db.message.count({
    where: { sessionId: message.sessionId, role: "user", seq: { gt: message.seq } },
  });
  if (later > 0 || isReplacedMessage(message))
    throw new AppError("conflict:session", "Only the last message of a chat can be edited.");
}

export type ReplacementTurn = {
  turnId: string;
  model: { provider: string; model: string; accountId: string | null };
  /** The turn row's remaining columns (lease), as the session manager writes them. */
  turnData: (userMessageId: string, historySeq: number) => Prisma.TurnUncheckedCreateInput;
};

export type Replacement = { userMessageId: string; historySeq: number; supersededTurnIds: string[] };

/**
 * In one transaction: claims the session for the new turn, supersedes the old message's turns,
 * appends the edited message, marks the old one replaced and creates the new turn's row. Then
 * records the events a browser follows (old turns superseded, the new message replacing the old).
 */
export async function replaceLastUserMessage(
  db: Db,
  ownerId: string,
  target: EditTarget,
  text: string,
  turn: ReplacementTurn,
): Promise<Replacement> {
  const replacement = await db.$transaction(async (tx) => {
    const claimed = await tx.chatSession.updateMany({
      where: { id: target.sessionId, ownerId, activeTurnId: null },
      data: {
        activeTurnId: turn.turnId,
        provider: turn.model.provider,
        model: turn.model.model,
        providerAccountId: turn.model.accountId,
      },
    });
    if (claimed.count === 0) throw new AppError("conflict:turn");
    const current = await tx.message.findUniqueOrThrow({
      where: { id: target.id },
      select: { id: true, sessionId: true, seq: true, metadata: true },
    });
    await assertLastUserMessage(tx as Db, current); // a send may have slipped in since the first check
    const oldTurns = await tx.turn.findMany({
      where: { userMessageId: target.id, status: { not: "superseded" } },
      select: { id: true },
    });
    await tx.turn.updateMany({
      where: { id: { in: oldTurns.map((old) => old.id) } },
      data: { status: "superseded", leaseOwner: null, leaseExpiresAt: null },
    });
    const message = await appendMessage(tx as Db, target.sessionId, null, {
      role: "user",
      parts: [{ type: "text", text }],
    });
    const metadata = { ...(target.metadata as object | null), replacedBy: message.id } satisfies ReplacedMetadata;
    await tx.message.update({ where: { id: target.id }, data: { metadata } });
    await tx.turn.create({ data: turn.turnData(message.id, message.seq) });
    return { userMessageId: message.id, historySeq: message.seq, supersededTurnIds: oldTurns.map((old) => old.id) };
  });
  for (const turnId of replacement.supersededTurnIds) {
    await appendEvent(db, {
      sessionId: target.sessionId,
      turnId,
      type: "turn.finished",
      data: { turnId, status: "superseded", supersededBy: turn.turnId },
    });
  }
  await appendEvent(db, {
    sessionId: target.sessionId,
    turnId: turn.turnId,
    type: "user.message",
    data: { messageId: replacement.userMessageId, text, replaces: target.id },
  });
  return replacement;
}
