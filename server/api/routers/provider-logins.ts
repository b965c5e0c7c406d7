// The `providerLogins` router: signing in with a personal subscription (Claude, ChatGPT, Gemini).
// `flows` lists what the administrator switched on, with the notice a user agrees to; `start` opens a
// sign-in (an authorize URL to open in a new tab, or a device code) — with `accountId`, one that
// reconnects that subscription account — `complete` takes the pasted code,
// `poll` follows a device sign-in, `cancel` drops one. Procedures parse and delegate to
// server/providers/subscriptions/logins.ts; no answer carries a token.
import { z } from "zod";

import { env } from "../../env.ts";
import { listFlows, subscriptionFlows } from "../../providers/subscriptions/flows.ts";
import { cancelLogin, completeLogin, pollLogin, startLogin } from "../../providers/subscriptions/logins.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const loginId = z.string().min(1).max(64);
const accountId = z.string().min(1).max(64);

export const providerLoginsRouter = createTRPCRouter({
  flows: protectedProcedure.query(() => listFlows(env)),

  start: protectedProcedure
    .input(z.object({ flow: z.enum(subscriptionFlows), accountId: accountId.optional() }))
    .mutation(({ ctx, input }) =>
      startLogin(ctx.db, ctx.user.id, input.flow, undefined, undefined, { reconnectAccountId: input.accountId }),
    ),

  complete: protectedProcedure
    .input(z.object({ loginId, code: z.string().trim().min(1, { error: "Paste the code first" }).max(4096) }))
    .mutation(({ ctx, input }) => completeLogin(ctx.db, ctx.user.id, input.loginId, input.code)),

  poll: protectedProcedure
    .input(z.object({ loginId }))
    .mutation(({ ctx, input }) => pollLogin(ctx.db, ctx.user.id, input.loginId)),

  cancel: protectedProcedure.input(z.object({ loginId })).mutation(async ({ ctx, input }) => {
    await cancelLogin(ctx.db, ctx.user.id, input.loginId);
    return { loginId: input.loginId };
  }),
});
