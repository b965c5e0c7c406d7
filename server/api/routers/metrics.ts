// The `metrics` router: tool-call and model figures over a period (server/metrics/), for the
// caller's own chats, or everyone's for an admin (ADMIN_EMAILS), filtered by model, connector, tool
// and chat. Read-only.
import { metricsFilterSchema } from "../../metrics/filter.ts";
import { readMetricsView } from "../../metrics/metrics-view.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const metricsRouter = createTRPCRouter({
  view: protectedProcedure
    .input(metricsFilterSchema)
    .query(({ ctx, input }) => readMetricsView(ctx.db, ctx.user, input)),
});
