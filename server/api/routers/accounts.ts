// The `accounts` router: a user's own provider accounts — API keys, OpenAI-compatible endpoints and
// (through the provider-logins router) personal subscriptions. Keys go in and never come back out:
// DTOs say only whether a key is set. Ownership and validation live in server/providers/accounts.ts.
import { z } from "zod";

import {
  addApiKeyAccount,
  addApiKeyInputSchema,
  addCompatibleAccount,
  addCompatibleInputSchema,
  listAccounts,
  refreshCompatibleModels,
  removeAccount,
  updateAccount,
  updateAccountInputSchema,
} from "../../providers/accounts.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const accountId = z.string().min(1).max(64);

export const accountsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listAccounts(ctx.db, ctx.user.id)),

  addApiKey: protectedProcedure
    .input(addApiKeyInputSchema)
    .mutation(({ ctx, input }) => addApiKeyAccount(ctx.db, ctx.user.id, input)),

  /** Adds an OpenAI-compatible endpoint after reading its `/models` list (a clear error if it cannot). */
  addCompatible: protectedProcedure
    .input(addCompatibleInputSchema)
    .mutation(({ ctx, input }) => addCompatibleAccount(ctx.db, ctx.user.id, input)),

  update: protectedProcedure
    .input(updateAccountInputSchema.extend({ id: accountId }))
    .mutation(({ ctx, input: { id, ...patch } }) => updateAccount(ctx.db, ctx.user.id, id, patch)),

  refreshModels: protectedProcedure
    .input(z.object({ id: accountId }))
    .mutation(({ ctx, input }) => refreshCompatibleModels(ctx.db, ctx.user.id, input.id)),

  remove: protectedProcedure.input(z.object({ id: accountId })).mutation(async ({ ctx, input }) => {
    await removeAccount(ctx.db, ctx.user.id, input.id);
    return { id: input.id };
  }),
});
