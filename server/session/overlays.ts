// A chat's context overlays in the database: list, add and remove them (owner-only: another user's
// chat is not_found:session, another user's overlay not_found:overlay), and read them for a turn.
// Every change bumps ChatSession.overlayRevision in the same transaction (monotonic, like
// toolsRevision) and then appends `overlays.changed` {revision} to the session's event log, so every
// tab and instance following the chat reloads them. A turn reads them afresh before each model
// request (turn-runner.ts), so a change applies on the next request; `chat.applyNow` restarts the
// streaming answer on it instead. The canonical messages are never touched.
import type { ContextOverlay, OverlayKind } from "../core/context-overlays.ts";
import { poolOf, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { appendEvent } from "./event-log.ts";

export type OverlayDto = ContextOverlay & { createdAt: Date };
export type OverlayListDto = { revision: number; overlays: OverlayDto[] };

export type NewOverlay =
  | { kind: "exclude"; messageId: string }
  | { kind: "exclude"; callId: string }
  | { kind: "pin"; text: string }
  | { kind: "replace"; callId: string; text: string };

/**
 * SQL for a chat's overlays as one json array, oldest first (`session`: the ChatSession row's alias).
 * Used by loadOverlays and by the statement that starts a turn (turn-sql.ts), which reads them for
 * the turn's first request; overlaysFrom turns the array into OverlayDtos.
 */
export const overlaysJsonSql = (session: string) =>
  `COALESCE((SELECT json_agg(json_build_object('id', o."id", 'kind', o."kind", 'messageId', o."messageId",
      'callId', o."callId", 'text', o."text", 'createdAt', o."createdAt") ORDER BY o."createdAt", o."id")
    FROM "ContextOverlay" o WHERE o."sessionId" = ${session}."id"), '[]')`;

export function overlaysFrom(json: (OverlayDto & { createdAt: string })[]): OverlayDto[] {
  // createdAt is a UTC timestamp without a zone (as Prisma writes it).
  return json.map((o) => ({ ...o, createdAt: new Date(`${o.createdAt}Z`) }));
}

/**
 * The overlays a request is rendered with and their revision (no owner check: the turn's own chat).
 * Read before every model request, so it is one raw statement on the client's pool (as the other
 * hot-path reads, see transcript.ts), both from one snapshot.
 */
export async function loadOverlays(db: Db, sessionId: string): Promise<OverlayListDto> {
  const { rows } = await poolOf(db).query<{ revision: number; overlays: (OverlayDto & { createdAt: string })[] }>(
    `SELECT s."overlayRevision" AS revision, ${overlaysJsonSql("s")} AS overlays
    FROM "ChatSession" s WHERE s."id" = $1`,
    [sessionId],
  );
  const row = rows[0];
  if (!row) return { revision: 0, overlays: [] };
  return { revision: row.revision, overlays: overlaysFrom(row.overlays) };
}

export async function listOverlays(db: Db, ownerId: string, sessionId: string): Promise<OverlayListDto> {
  await ownedSession(db, ownerId, sessionId);
  return loadOverlays(db, sessionId);
}

async function ownedSession(db: Db, ownerId: string, sessionId: string): Promise<void> {
  const session = await db.chatSession.findFirst({ where: { id: sessionId, ownerId }, select: { id: true } });
  if (!session) throw new AppError("not_found:session");
}

/** The target must be in this chat: a message of it, or a tool call one of its messages made. */
async function assertTarget(db: Db, sessionId: string, overlay: NewOverlay): Promise<void> {
  if ("messageId" in overlay) {
    const found = await db.message.findFirst({ where: { id: overlay.messageId, sessionId }, select: { id: true } });
    if (!found) throw new AppError("not_found:overlay", "That message is not in this chat.");
  }
  if ("callId" in overlay) {
    const found = await db.message.findFirst({
      where: { sessionId, role: "assistant", parts: { array_contains: [{ id: overlay.callId }] } },
      select: { id: true },
    });
    if (!found) throw new AppError("not_found:overlay", "That tool call is not in this chat.");
  }
}

async function announce(db: Db, sessionId: string, revision: number): Promise<void> {
  await appendEvent(db, { sessionId, type: "overlays.changed", data: { revision } });
}

/**
 * Adds an overlay (excluding the same target twice changes nothing; a second summary for a result,
 * or a second exclusion, replaces the first) and returns the list at the new revision.
 */
export async function addOverlay(
  db: Db,
  ownerId: string,
  sessionId: string,
  overlay: NewOverlay,
): Promise<OverlayListDto> {
  await ownedSession(db, ownerId, sessionId);
  await assertTarget(db, sessionId, overlay);
  const messageId = "messageId" in overlay ? overlay.messageId : null;
  const callId = "callId" in overlay ? overlay.callId : null;
  const text = "text" in overlay ? overlay.text.trim() : null;
  const kind: OverlayKind = overlay.kind;
  const revision = await db.$transaction(async (tx) => {
    const { overlayRevision } = await tx.chatSession.update({
      where: { id: sessionId },
      data: { overlayRevision: { increment: 1 } },
      select: { overlayRevision: true },
    });
    if (kind !== "pin") await tx.contextOverlay.deleteMany({ where: { sessionId, kind, messageId, callId } });
    await tx.contextOverlay.create({ data: { sessionId, kind, messageId, callId, text } });
    return overlayRevision;
  });
  await announce(db, sessionId, revision);
  return loadOverlays(db, sessionId);
}

/** Removes one of the owner's overlays (un-exclude, unpin, restore the result). */
export async function removeOverlay(db: Db, ownerId: string, overlayId: string): Promise<OverlayListDto> {
  const overlay = await db.contextOverlay.findFirst({
    where: { id: overlayId, session: { ownerId } },
    select: { sessionId: true },
  });
  if (!overlay) throw new AppError("not_found:overlay");
  const revision = await db.$transaction(async (tx) => {
    const { count } = await tx.contextOverlay.deleteMany({ where: { id: overlayId } });
    if (count === 0) throw new AppError("not_found:overlay");
    const updated = await tx.chatSession.update({
      where: { id: overlay.sessionId },
      data: { overlayRevision: { increment: 1 } },
      select: { overlayRevision: true },
    });
    return updated.overlayRevision;
  });
  await announce(db, overlay.sessionId, revision);
  return loadOverlays(db, overlay.sessionId);
}
