// The `chat` router: send a message (starts a turn), stop or restart a turn, load a chat's history,
// follow its live event stream (SSE subscription, resumable by event id), pick provider and model.
// Procedures parse and authorize; the session manager does the work.
import { tracked } from "@trpc/server";
import { z } from "zod";

import { env } from "../../env.ts";
import { listModelSources } from "../../providers/model-sources.ts";
import { providerIdSchema } from "../../core/canonical.ts";
import { getChatSession } from "../../db/chat-sessions.ts";
import { followEvents } from "../../session/event-feed.ts";
import { getSessionHistory } from "../../session/history.ts";
import { getSessionManager } from "../../session/app-runtime.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const id = z.string().min(1).max(64);
const modelChoice = z.object({
  provider: providerIdSchema,
  model: z.string().trim().min(1).max(200),
  accountId: id.nullish(),
});
const messageText = z
  .string()
  .trim()
  .min(1, { error: "Write a message first" })
  .max(100_000, { error: "The message is too long (100,000 characters at most)" });

export const chatRouter = createTRPCRouter({
  /** Server-wide providers and the user's own accounts, with their models (never a credential). */
  providers: protectedProcedure.query(({ ctx }) => listModelSources(ctx.db, env, ctx.user.id)),

  history: protectedProcedure
    .input(z.object({ sessionId: id }))
    .query(({ ctx, input }) => getSessionHistory(ctx.db, ctx.user.id, input.sessionId)),

  send: protectedProcedure
    .input(z.object({ sessionId: id, text: messageText, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) =>
      (await getSessionManager()).startTurn(ctx.user.id, input.sessionId, input.text, input.choice),
    ),

  /** Edit the chat's last message: the old one and its answers are superseded, the new text answered. */
  editAndResend: protectedProcedure
    .input(z.object({ messageId: id, text: messageText, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) =>
      (await getSessionManager()).editAndResend(ctx.user.id, input.messageId, input.text, input.choice),
    ),

  cancel: protectedProcedure.input(z.object({ turnId: id })).mutation(async ({ ctx, input }) => {
    await (await getSessionManager()).cancel(ctx.user.id, input.turnId);
    return { turnId: input.turnId };
  }),

  /** Regenerate: supersede the turn and answer again from the same user message (a full redo). */
  restart: protectedProcedure
    .input(z.object({ turnId: id, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) => (await getSessionManager()).restart(ctx.user.id, input.turnId, input.choice)),

  /**
   * Apply now: supersede the streaming turn and restart it on the latest tool revision, keeping its
   * complete tool rounds (finished tool work is not done again).
   */
  applyNow: protectedProcedure
    .input(z.object({ turnId: id }))
    .mutation(async ({ ctx, input }) => (await getSessionManager()).applyNow(ctx.user.id, input.turnId)),

  events: protectedProcedure
    .input(z.object({ sessionId: id, lastEventId: z.string().regex(/^\d+$/).nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      await getChatSession(ctx.db, ctx.user.id, input.sessionId);
      const abort = signal ?? new AbortController().signal;
      for await (const event of followEvents(ctx.db, input.sessionId, input.lastEventId ?? null, abort)) {
        yield tracked(event.id, event);
      }
    }),
});
