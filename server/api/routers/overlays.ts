// The `overlays` router: a chat's context overlays (what the model sees, not what is stored): list
// them, exclude a message or a tool round, pin a note, replace a tool result with a summary, and
// remove one again. Owner-only (another user's chat is not_found:session, another user's overlay
// not_found:overlay). A change applies from the next model request; `chat.applyNow` restarts the
// streaming answer on it instead.
import { z } from "zod";

import { addOverlay, listOverlays, removeOverlay } from "../../session/overlays.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const id = z.string().min(1).max(64);
const note = z
  .string()
  .trim()
  .min(1, { error: "Write the note first" })
  .max(4_000, { error: "The note is too long (4,000 characters at most)" });
const summary = z
  .string()
  .trim()
  .min(1, { error: "Write the summary first" })
  .max(20_000, { error: "The summary is too long (20,000 characters at most)" });

export const overlaysRouter = createTRPCRouter({
  list: protectedProcedure
    .input(z.object({ sessionId: id }))
    .query(({ ctx, input }) => listOverlays(ctx.db, ctx.user.id, input.sessionId)),

  excludeMessage: protectedProcedure
    .input(z.object({ sessionId: id, messageId: id }))
    .mutation(({ ctx, input }) =>
      addOverlay(ctx.db, ctx.user.id, input.sessionId, { kind: "exclude", messageId: input.messageId }),
    ),

  excludeRound: protectedProcedure
    .input(z.object({ sessionId: id, callId: id }))
    .mutation(({ ctx, input }) =>
      addOverlay(ctx.db, ctx.user.id, input.sessionId, { kind: "exclude", callId: input.callId }),
    ),

  pin: protectedProcedure
    .input(z.object({ sessionId: id, text: note }))
    .mutation(({ ctx, input }) => addOverlay(ctx.db, ctx.user.id, input.sessionId, { kind: "pin", text: input.text })),

  replaceResult: protectedProcedure
    .input(z.object({ sessionId: id, callId: id, text: summary }))
    .mutation(({ ctx, input }) =>
      addOverlay(ctx.db, ctx.user.id, input.sessionId, { kind: "replace", callId: input.callId, text: input.text }),
    ),

  remove: protectedProcedure
    .input(z.object({ overlayId: id }))
    .mutation(({ ctx, input }) => removeOverlay(ctx.db, ctx.user.id, input.overlayId)),
});
