"use client";
// The queries of the page around the conversation (the pickers, the tools chip and panel, the usage
// meter, the pinned notes), started together with the chat's history. That page mounts only once
// the history has loaded, so its own queries would start a round trip later: a long chat's page was
// interactive only after two requests one after the other. Fresh cached answers are not asked again.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

export function usePrefetchChatPage(sessionId: string): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.prefetchQuery(trpc.tools.state.queryOptions({ sessionId }));
    void queryClient.prefetchQuery(trpc.overlays.list.queryOptions({ sessionId }));
    void queryClient.prefetchQuery(trpc.chat.providers.queryOptions());
    void queryClient.prefetchQuery(trpc.policy.personas.list.queryOptions());
    void queryClient.prefetchQuery(trpc.usage.mine.queryOptions());
  }, [sessionId, trpc, queryClient]);
}
