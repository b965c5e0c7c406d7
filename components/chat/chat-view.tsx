"use client";
// The chat page's body: the conversation (user messages, each followed by the turns that answered
// it; hover actions copy a message, edit the last one and regenerate the last answer, Try again on
// it when it failed), the pinned notes (and the context overlays' pending change) above the
// composer, whose row holds the persona and model pickers and the tools summary chip that
// opens the Tools panel (docked on wide screens, a bottom sheet on phones). The title follows renames
// made in the chat list (they update the cached history, see use-session-actions.ts). While the live
// event stream is lost (the server that served it went away) it says "Reconnecting…"; the stream
// resumes from its last event on whichever instance answers next. When the server refuses it for
// good (signed out, or the chat was deleted elsewhere) it says so in the server's words.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { memo, Suspense, useEffect, useMemo, useRef, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { SessionSidebarSheet } from "@/components/sessions/session-sidebar.tsx";
import { OverlayProvider } from "@/components/overlays/overlay-context.tsx";
import { PinnedNotes } from "@/components/overlays/pinned-notes.tsx";
import { useOverlays } from "@/components/overlays/use-overlays.ts";
import { useLatestCallback } from "@/components/ui/use-latest-callback.ts";

import type { StreamState } from "./chat-event-stream.ts";
import { ChatStoreProvider, useChatSelector } from "./chat-store.ts";
import { ChatToolsPanel, ToolsSummaryChip, useToolsPanelOpen } from "./chat-tools.tsx";
import { Composer } from "./composer.tsx";
import { Conversation } from "./conversation.tsx";
import { ModelPicker, type ModelChoice } from "./model-picker.tsx";
import { selectPageFacts, type PageFacts } from "./page-facts.ts";
import { PersonaPicker } from "./persona-picker.tsx";
import { UsageMeter } from "./usage-meter.tsx";
import { useChat } from "./use-chat.ts";
import { useChatShortcuts } from "./shortcuts.ts";
import { useChatActions } from "./use-chat-actions.ts";
import { usePrefetchChatPage } from "./use-prefetch-chat-page.ts";

/** The model the next message goes to: the one picked here, else the chat's, else the first offered. */
function useModelChoice(session: { provider: string | null; model: string | null; providerAccountId: string | null }) {
  const trpc = useTRPC();
  const providers = useQuery(trpc.chat.providers.queryOptions());
  const [picked, setPicked] = useState<ModelChoice | null>(null);
  const fallback = providers.data?.find((source) => source.models.length > 0);
  const saved =
    session.provider && session.model
      ? ({ provider: session.provider, model: session.model, accountId: session.providerAccountId } as ModelChoice)
      : null;
  const choice =
    picked ??
    saved ??
    (fallback ? { provider: fallback.provider, model: fallback.models[0]!, accountId: fallback.accountId } : null);
  return { choice, setPicked, hasNoProvider: providers.isSuccess && !choice };
}

function Notices({ stream, error }: { stream: StreamState; error: string | null }) {
  const stopped = stream.status === "stopped" ? stream.error?.message : null;
  return (
    <>
      {stream.status === "reconnecting" && (
        <p
          role="status"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          data-testid="stream-reconnecting"
        >
          Reconnecting… Lost the live connection to the server; the chat catches up as soon as it is back.
        </p>
      )}
      {stopped && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {stopped} The live updates of this chat stopped; reload the page to try again.
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
    </>
  );
}

/** `isToolsOpen`: whether the Tools panel was open when the page was asked for (its cookie). */
export function ChatView({ sessionId, isToolsOpen }: { sessionId: string; isToolsOpen: boolean }) {
  const trpc = useTRPC();
  const { store, history, stream } = useChat(sessionId);
  usePrefetchChatPage(sessionId);
  const facts = useChatSelector(store, selectPageFacts);
  const queryClient = useQueryClient();
  const title = facts?.title;
  const shownTitle = useRef(title);
  useEffect(() => {
    // The first message titles the chat: the chat list shows the new title (not asked again for the
    // title the page opened with: the list was loaded with it).
    if (!title || title === shownTitle.current) return;
    shownTitle.current = title;
    void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
  }, [title, queryClient, trpc]);

  if (history.isError)
    return (
      <p role="alert" className="p-6 text-red-700">
        {history.error.message}
      </p>
    );
  if (!facts || !history.data) return <p className="p-6 text-sm text-zinc-500">Loading…</p>;
  return (
    <ChatStoreProvider value={store}>
      <LoadedChat
        sessionId={sessionId}
        {...facts}
        session={history.data.session}
        stream={stream}
        initialToolsOpen={isToolsOpen}
      />
    </ChatStoreProvider>
  );
}

type ConversationProps = Parameters<typeof Conversation>[0];
type ToolsProps = Parameters<typeof ChatToolsPanel>[0];

/**
 * The conversation and the Tools panel, each a Suspense boundary that React hydrates after the
 * rest of the page. Their elements are kept while their props stay the same: a re-render of the
 * page before they are hydrated (the event stream opening, a query answering) would otherwise make
 * React hydrate them at once, in one task that blocks the page (120-200 ms for a long chat on the
 * dev box) instead of in slices between frames.
 */
function useLateBoundaries({ onEdit, onRetry }: ConversationProps, tools: ToolsProps) {
  const conversation = useMemo(
    () => (
      <Suspense>
        <Conversation onEdit={onEdit} onRetry={onRetry} />
      </Suspense>
    ),
    [onEdit, onRetry],
  );
  const toolsPanel = useMemo(
    () => (
      <Suspense>
        <ChatToolsPanel {...tools} />
      </Suspense>
    ),
    [tools],
  );
  return { conversation, toolsPanel };
}

type LoadedProps = PageFacts & {
  sessionId: string;
  initialToolsOpen: boolean;
  session: { provider: string | null; model: string | null; providerAccountId: string | null };
  stream: StreamState;
};

/**
 * The page around the conversation; memoised, so a streamed chunk does not re-render it. The
 * conversation and the Tools panel are Suspense boundaries: on a server-rendered page React hydrates
 * the rest (the composer, its pickers and chip) first and takes them over just after, so a long chat
 * can be typed into before all its messages are hydrated.
 */
const LoadedChat = memo(function LoadedChat(props: LoadedProps) {
  const { sessionId, session, stream, streamingTurnId } = props;
  const { choice, setPicked, hasNoProvider } = useModelChoice(session);
  const actions = useChatActions(sessionId, choice);
  const edit = useLatestCallback(actions.edit);
  const regenerate = useLatestCallback(actions.regenerate);
  const [keptChange, setKeptChange] = useState<string | null>(null);
  const [isToolsOpen, setToolsOpen] = useToolsPanelOpen(props.initialToolsOpen);
  const stopStreaming = streamingTurnId ? () => actions.stop(streamingTurnId) : null;
  const overlays = useOverlays(sessionId, props.overlayRevision);
  const overlayControls = useMemo(
    () => ({ view: overlays.view, actions: overlays.actions }),
    [overlays.view, overlays.actions],
  );
  const streamingOverlays = streamingTurnId
    ? { turnId: streamingTurnId, revision: props.streamingOverlayRevision }
    : null;
  useChatShortcuts(stopStreaming);
  const { toolsRevision, streamingToolsRevision } = props;
  const tools = useMemo(
    () => ({
      sessionId,
      toolsRevision,
      streaming: streamingTurnId ? { turnId: streamingTurnId, revision: streamingToolsRevision } : null,
      keptChange,
      onKeepChange: setKeptChange,
      isOpen: isToolsOpen,
      onOpenChange: setToolsOpen,
    }),
    [sessionId, toolsRevision, streamingTurnId, streamingToolsRevision, keptChange, isToolsOpen, setToolsOpen],
  );
  const { conversation, toolsPanel } = useLateBoundaries(
    {
      onEdit: streamingTurnId || actions.isSending ? undefined : edit,
      onRetry: streamingTurnId || actions.isRestarting ? undefined : regenerate,
    },
    tools,
  );
  return (
    <OverlayProvider value={overlayControls}>
      <div className="mx-auto flex w-full max-w-6xl flex-1 gap-4 px-3 py-4 sm:px-4">
        <main className="flex min-w-0 flex-1 flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <SessionSidebarSheet />
          </div>
          <UsageMeter isServerKey={!!choice && !choice.accountId} />
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{props.title}</h1>
          {conversation}
          <Notices stream={stream} error={actions.error} />
          <div className="sticky bottom-0 bg-white pb-2 dark:bg-zinc-950">
            <PinnedNotes streaming={streamingOverlays} revision={overlays.revision} error={overlays.error} />
            <Composer
              isStreaming={!!streamingTurnId}
              isSending={actions.isSending}
              hasNoProvider={hasNoProvider}
              onSend={actions.send}
              onStop={() => stopStreaming?.()}
            >
              <PersonaPicker sessionId={sessionId} value={props.personaId} />
              <ModelPicker value={choice} onChange={setPicked} />
              <ToolsSummaryChip {...tools} />
            </Composer>
          </div>
        </main>
        {toolsPanel}
      </div>
    </OverlayProvider>
  );
});
