// What the chat page needs to be usable, asked of the tRPC routers on the server while the page
// renders: the chat's history, its tools (the composer's chip) and the models on offer (the
// composer's picker). The page's HTML then shows the chat (its latest exchanges) and React takes it
// over at once, instead of rendering "Loading…" and asking the server again after hydrating.
// The answers are handed to the browser's query cache (HydrationBoundary). Whatever is not ready
// within PREFETCH_BUDGET_MS (a connector's tools slow to list, say), or failed, is left out: the
// browser then asks for it itself, as it did before.
import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";

import { createTRPCContext } from "@/server/api/context.ts";
import { appRouter } from "@/server/api/root.ts";

const PREFETCH_BUDGET_MS = 1_000;

export async function prefetchChatPage(sessionId: string): Promise<DehydratedState> {
  const queryClient = new QueryClient();
  const trpc = createTRPCOptionsProxy({ ctx: createTRPCContext, router: appRouter, queryClient });
  const prefetches = Promise.all([
    queryClient.prefetchQuery(trpc.chat.history.queryOptions({ sessionId })),
    queryClient.prefetchQuery(trpc.tools.state.queryOptions({ sessionId })),
    queryClient.prefetchQuery(trpc.chat.providers.queryOptions()),
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise((resolve) => (timer = setTimeout(resolve, PREFETCH_BUDGET_MS)));
  await Promise.race([prefetches, budget]);
  clearTimeout(timer);
  return dehydrate(queryClient);
}
