// Chat sessions and who owns them. Every function takes the owner's id and every query filters on
// it, so ownership is enforced here, in the data access, whatever the caller forgot: another user's
// session is indistinguishable from one that does not exist (not_found:session).
import type { Db } from "./client.ts";
import { AppError } from "../errors.ts";

export type ChatSessionDto = { id: string; title: string; createdAt: Date; updatedAt: Date };

const select = { id: true, title: true, createdAt: true, updatedAt: true } as const;

export const DEFAULT_SESSION_TITLE = "New chat";

export async function listChatSessions(db: Db, ownerId: string): Promise<ChatSessionDto[]> {
  return db.chatSession.findMany({ where: { ownerId }, orderBy: { updatedAt: "desc" }, select });
}

export async function getChatSession(db: Db, ownerId: string, id: string): Promise<ChatSessionDto> {
  const session = await db.chatSession.findFirst({ where: { id, ownerId }, select });
  if (!session) throw new AppError("not_found:session");
  return session;
}

export async function createChatSession(db: Db, ownerId: string, title?: string): Promise<ChatSessionDto> {
  return db.chatSession.create({ data: { ownerId, title: title ?? DEFAULT_SESSION_TITLE }, select });
}

export async function renameChatSession(db: Db, ownerId: string, id: string, title: string): Promise<ChatSessionDto> {
  const { count } = await db.chatSession.updateMany({ where: { id, ownerId }, data: { title } });
  if (count === 0) throw new AppError("not_found:session");
  return getChatSession(db, ownerId, id);
}

export async function deleteChatSession(db: Db, ownerId: string, id: string): Promise<void> {
  const { count } = await db.chatSession.deleteMany({ where: { id, ownerId } });
  if (count === 0) throw new AppError("not_found:session");
}
