"use client";
// What the chat page does on the server, for the chat view: send a message, edit the last one and
// answer it again, regenerate (or try again) an answer, stop the streaming one. Every action clears
// the last error first; a failure is kept in `error` for the page to show. Usage is refreshed after a
// send (the meter counts server-key messages).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

import type { ModelChoice } from "./model-options.ts";

export function useChatActions(sessionId: string, choice: ModelChoice | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(trpc.chat.send.mutationOptions());
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const restart = useMutation(trpc.chat.restart.mutationOptions());
  const editAndResend = useMutation(trpc.chat.editAndResend.mutationOptions());
  const onError = (e: { message: string }) => setError(e.message);
  const picked = choice ?? undefined;

  async function attempt(run: () => Promise<unknown>): Promise<boolean> {
    setError(null);
    try {
      await run();
      return true;
    } catch (e) {
      onError(e as Error);
      return false;
    }
  }

  return {
    error,
    isSending: send.isPending,
    isRestarting: restart.isPending,
    send: async (text: string) => {
      const isSent = await attempt(() => send.mutateAsync({ sessionId, text, choice: picked }));
      void queryClient.invalidateQueries({ queryKey: trpc.usage.mine.queryKey() });
      return isSent;
    },
    edit: (messageId: string, text: string) =>
      attempt(() => editAndResend.mutateAsync({ messageId, text, choice: picked })),
    regenerate: (turnId: string) => {
      setError(null);
      restart.mutate({ turnId, choice: picked }, { onError });
    },
    stop: (turnId: string) => cancel.mutate({ turnId }, { onError }),
  };
}
