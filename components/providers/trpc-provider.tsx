"use client";
// The browser's tRPC client and React Query cache, provided to every client component.
// Components call `useTRPC()` and use the TanStack Query hooks with its query/mutation options.
// (A chat's live events are not tRPC: components/chat/chat-event-stream.ts reads their SSE route.)
// Calls are batched, except the ones a user waits on to see a model answer (send, apply now): the
// batch link sends from a timer, behind whatever renders queued first (React Query schedules the
// mutation's own pending render the same way), while these leave in the click's own task.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";

import type { AppRouter } from "@/server/api/root.ts";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

const UNBATCHED = new Set(["chat.send", "chat.applyNow"]);

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failureCount, error) => failureCount < 2 && !isClientError(error),
      },
    },
  });
}

function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}

export function TrpcProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => UNBATCHED.has(op.path),
          true: httpLink({ url: "/api/trpc", transformer: superjson }),
          false: httpBatchLink({ url: "/api/trpc", transformer: superjson }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
