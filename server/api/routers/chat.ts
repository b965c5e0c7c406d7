// The `chat` router: send a message (starts a turn), stop or restart a turn, load a chat's history,
// pick provider and model. A chat's live event stream is not a procedure: it is its own SSE route
// (app/api/chats/[sessionId]/events, server/api/chat-events.ts), which writes pre-made frames.
// Procedures parse and authorize; the session manager does the work.
import { z } from "zod";

import { env } from "../../env.ts";
import { listModelSources } from "../../providers/model-sources.ts";
import { providerIdSchema } from "../../core/canonical.ts";
import { getSessionHistory } from "../../session/history.ts";
import { choiceRules, getSessionManager } from "../../session/app-runtime.ts";
import { authorizeChoice } from "../../session/server-key-usage.ts";
import { type ModelChoice, normalizeChoice } from "../../session/turn-models.ts";
import type { Context } from "../trpc.ts";
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

/**
 * A chosen model must be offered and, on a server key, within the user's limits: refused here with a
 * 400 / 429 in words before anything is stored (the session manager checks stored choices itself).
 */
async function authorize(ctx: Context & { user: { id: string } }, choice: ModelChoice | undefined): Promise<void> {
  const model = normalizeChoice(choice ?? null);
  if (model) await authorizeChoice(ctx.db, ctx.user.id, model, choiceRules());
}

export const chatRouter = createTRPCRouter({
  /** Server-wide providers and the user's own accounts, with their models (never a credential). */
  providers: protectedProcedure.query(({ ctx }) => listModelSources(ctx.db, env, ctx.user.id)),

  history: protectedProcedure
    .input(z.object({ sessionId: id }))
    .query(({ ctx, input }) => getSessionHistory(ctx.db, ctx.user.id, input.sessionId)),

  send: protectedProcedure
    .input(z.object({ sessionId: id, text: messageText, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) => {
      await authorize(ctx, input.choice);
      return (await getSessionManager()).startTurn(ctx.user.id, input.sessionId, input.text, input.choice);
    }),

  /** Edit the chat's last message: the old one and its answers are superseded, the new text answered. */
  editAndResend: protectedProcedure
    .input(z.object({ messageId: id, text: messageText, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) => {
      await authorize(ctx, input.choice);
      return (await getSessionManager()).editAndResend(ctx.user.id, input.messageId, input.text, input.choice);
    }),

  cancel: protectedProcedure.input(z.object({ turnId: id })).mutation(async ({ ctx, input }) => {
    await (await getSessionManager()).cancel(ctx.user.id, input.turnId);
    return { turnId: input.turnId };
  }),

  /** Regenerate: supersede the turn and answer again from the same user message (a full redo). */
  restart: protectedProcedure
    .input(z.object({ turnId: id, choice: modelChoice.optional() }))
    .mutation(async ({ ctx, input }) => {
      await authorize(ctx, input.choice);
      return (await getSessionManager()).restart(ctx.user.id, input.turnId, input.choice);
    }),

  /**
   * Apply now: supersede the streaming turn and restart it on the latest tool revision, keeping its
   * complete tool rounds (finished tool work is not done again).
   */
  applyNow: protectedProcedure
    .input(z.object({ turnId: id }))
    .mutation(async ({ ctx, input }) => (await getSessionManager()).applyNow(ctx.user.id, input.turnId)),
});
