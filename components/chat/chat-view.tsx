"use client";
// The chat page's body: the conversation (user messages, each followed by the turns that answered
// it; the last message editable), the composer with Stop, Regenerate for the last answer (Try again
// on it when it failed), and the model and persona pickers. The Tools panel sits beside it on wide
// screens; narrow screens open it and the chat list in sheets. The title follows renames made in the
// chat list (they update the cached history, see use-session-actions.ts). While the live event
// stream is lost (the server that served it went away) it says "Reconnecting…"; the stream resumes
// from its last event on whichever instance answers next.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { SessionSidebarSheet } from "@/components/sessions/session-sidebar.tsx";
import { Button } from "@/components/ui/button.tsx";

import { findStreamingTurn } from "./chat-state.ts";
import { ChatToolsColumn, ChatToolsSheet } from "./chat-tools.tsx";
import { Composer } from "./composer.tsx";
import { Conversation } from "./conversation.tsx";
import { ModelPicker, type ModelChoice } from "./model-picker.tsx";
import { PersonaPicker } from "./persona-picker.tsx";
import { UsageMeter } from "./usage-meter.tsx";
import { useChat } from "./use-chat.ts";

/** The live stream dropped and is being re-opened (the first connect is not "lost"). */
function isStreamLost(subscription: { status: string; error: unknown }): boolean {
  return subscription.status === "error" || (subscription.status === "connecting" && subscription.error !== null);
}

export function ChatView({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const { state, history, subscription } = useChat(sessionId);
  const providers = useQuery(trpc.chat.providers.queryOptions());
  const [picked, setPicked] = useState<ModelChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [keptChange, setKeptChange] = useState<string | null>(null);
  const send = useMutation(trpc.chat.send.mutationOptions());
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const restart = useMutation(trpc.chat.restart.mutationOptions());
  const editAndResend = useMutation(trpc.chat.editAndResend.mutationOptions());
  const queryClient = useQueryClient();
  const title = state?.title;
  useEffect(() => {
    // The first message titles the chat: the chat list shows the new title.
    if (title) void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
  }, [title, queryClient, trpc]);

  if (history.isError)
    return (
      <p role="alert" className="p-6 text-red-700">
        {history.error.message}
      </p>
    );
  if (!state || !history.data) return <p className="p-6 text-sm text-zinc-500">Loading…</p>;

  const session = history.data.session;
  const fallback = providers.data?.find((source) => source.models.length > 0);
  const saved =
    session.provider && session.model
      ? ({ provider: session.provider, model: session.model, accountId: session.providerAccountId } as ModelChoice)
      : null;
  const choice =
    picked ??
    saved ??
    (fallback ? { provider: fallback.provider, model: fallback.models[0]!, accountId: fallback.accountId } : null);
  const streaming = findStreamingTurn(state);
  const lastTurn = state.turns.at(-1);
  const onError = (e: { message: string }) => setError(e.message);
  const regenerate = (turnId: string) => {
    setError(null);
    restart.mutate({ turnId, choice: choice ?? undefined }, { onError });
  };

  const refreshUsage = () => void queryClient.invalidateQueries({ queryKey: trpc.usage.mine.queryKey() });

  async function onSend(text: string): Promise<boolean> {
    setError(null);
    try {
      await send.mutateAsync({ sessionId, text, choice: choice ?? undefined });
      return true;
    } catch (e) {
      onError(e as Error);
      return false;
    } finally {
      refreshUsage();
    }
  }

  async function onEdit(messageId: string, text: string): Promise<boolean> {
    setError(null);
    try {
      await editAndResend.mutateAsync({ messageId, text, choice: choice ?? undefined });
      return true;
    } catch (e) {
      onError(e as Error);
      return false;
    }
  }

  const streamingRevision = streaming?.requests.at(-1)?.toolsRevision ?? null;
  const tools = {
    sessionId,
    toolsRevision: state.toolsRevision,
    streaming: streaming ? { turnId: streaming.id, revision: streamingRevision } : null,
    keptChange,
    onKeepChange: setKeptChange,
  };
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 gap-4 px-3 py-4 sm:px-4">
      <main className="flex min-w-0 flex-1 flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <SessionSidebarSheet />
          <div className="flex flex-wrap items-center gap-3">
            <PersonaPicker sessionId={sessionId} value={state.personaId} />
            <ModelPicker value={choice} onChange={setPicked} />
            <ChatToolsSheet {...tools} />
          </div>
        </div>
        <UsageMeter isServerKey={!!choice && !choice.accountId} />
        <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{state.title}</h1>
        <Conversation
          state={state}
          onEdit={streaming || send.isPending ? undefined : onEdit}
          onRetry={streaming || restart.isPending ? undefined : regenerate}
        />
        {isStreamLost(subscription) && (
          <p
            role="status"
            className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
            data-testid="stream-reconnecting"
          >
            Reconnecting… Lost the live connection to the server; the chat catches up as soon as it is back.
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        {lastTurn && !streaming && lastTurn.status !== "superseded" && lastTurn.status !== "failed" && (
          <div>
            <Button variant="ghost" disabled={restart.isPending} onClick={() => regenerate(lastTurn.id)}>
              Regenerate
            </Button>
          </div>
        )}
        <div className="sticky bottom-0 bg-white pb-2 dark:bg-zinc-950">
          <Composer
            isStreaming={!!streaming}
            isSending={send.isPending}
            hasNoProvider={providers.isSuccess && !choice}
            onSend={onSend}
            onStop={() => streaming && cancel.mutate({ turnId: streaming.id }, { onError })}
          />
        </div>
      </main>
      <ChatToolsColumn {...tools} />
    </div>
  );
}
