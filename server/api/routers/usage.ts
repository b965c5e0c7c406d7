// The `usage` router: what the signed-in user has used today of the server's own provider keys,
// per model, against the per-user limits (USER_REQUESTS_PER_MINUTE, USER_TOKENS_PER_DAY), and
// what is left. Only the caller's own usage; never anyone else's.
import { readUsage } from "../../policy/usage-limits.ts";
import { choiceRules } from "../../session/app-runtime.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const usageRouter = createTRPCRouter({
  mine: protectedProcedure.query(({ ctx }) => readUsage(ctx.db, ctx.user.id, choiceRules().usageLimits)),
});
