"use client";
// Rename and delete of one chat, shared by the home page's list and the chat sidebar. A rename also
// writes the new title into the chat's cached history, so an open chat's heading follows it
// without reloading; both refresh the list of chats.
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

type Callbacks = {
  onRenamed?: () => void;
  onDeleted?: () => void;
  onError: (message: string) => void;
};

export function useSessionActions(sessionId: string, { onRenamed, onDeleted, onError }: Callbacks) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshList = () => queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
  const rename = useMutation(
    trpc.session.rename.mutationOptions({
      onSuccess: (session) => {
        queryClient.setQueryData(trpc.chat.history.queryKey({ sessionId }), (history) =>
          history ? { ...history, session: { ...history.session, title: session.title } } : history,
        );
        onRenamed?.();
        return refreshList();
      },
      onError: (error) => onError(error.message),
    }),
  );
  const remove = useMutation(
    trpc.session.delete.mutationOptions({
      onSuccess: () => {
        onDeleted?.();
        return refreshList();
      },
      onError: (error) => onError(error.message),
    }),
  );
  return {
    rename: (title: string) => rename.mutate({ id: sessionId, title }),
    remove: () => remove.mutate({ id: sessionId }),
    isRenaming: rename.isPending,
    isRemoving: remove.isPending,
  };
}
