// The app's tRPC router: one sub-router per resource. Add a router in ./routers and mount it here.
import { accountsRouter } from "./routers/accounts.ts";
import { chatRouter } from "./routers/chat.ts";
import { connectorsRouter } from "./routers/connectors.ts";
import { metricsRouter } from "./routers/metrics.ts";
import { overlaysRouter } from "./routers/overlays.ts";
import { policyRouter } from "./routers/policy.ts";
import { providerLoginsRouter } from "./routers/provider-logins.ts";
import { questionsRouter } from "./routers/questions.ts";
import { sessionRouter } from "./routers/session.ts";
import { toolsRouter } from "./routers/tools.ts";
import { usageRouter } from "./routers/usage.ts";
import { createCallerFactory, createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  session: sessionRouter,
  chat: chatRouter,
  tools: toolsRouter,
  connectors: connectorsRouter,
  policy: policyRouter,
  questions: questionsRouter,
  accounts: accountsRouter,
  providerLogins: providerLoginsRouter,
  usage: usageRouter,
  metrics: metricsRouter,
  overlays: overlaysRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
