// The `session` router: the signed-in user's chat sessions. Procedures parse input, take the user
// from the context and make one call into server/session; ownership is enforced there.
import { z } from "zod";

import {
  createChatSession,
  deleteChatSession,
  getChatSession,
  listChatSessions,
  renameChatSession,
} from "../../db/chat-sessions.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const sessionId = z.string().min(1).max(64);
const title = z
  .string()
  .trim()
  .min(1, { error: "Title cannot be empty" })
  .max(200, { error: "Title is too long (200 characters at most)" });

export const sessionRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listChatSessions(ctx.db, ctx.user.id)),

  get: protectedProcedure
    .input(z.object({ id: sessionId }))
    .query(({ ctx, input }) => getChatSession(ctx.db, ctx.user.id, input.id)),

  create: protectedProcedure
    .input(z.object({ title: title.optional() }).optional())
    .mutation(({ ctx, input }) => createChatSession(ctx.db, ctx.user.id, input?.title)),

  rename: protectedProcedure
    .input(z.object({ id: sessionId, title }))
    .mutation(({ ctx, input }) => renameChatSession(ctx.db, ctx.user.id, input.id, input.title)),

  delete: protectedProcedure.input(z.object({ id: sessionId })).mutation(async ({ ctx, input }) => {
    await deleteChatSession(ctx.db, ctx.user.id, input.id);
    return { id: input.id };
  }),
});
