"use client";
// One chat in the browser: loads the history once, then follows the live event stream from the
// history's last event id (chat-event-stream.ts: its own SSE route, resumed from the last event
// after a dropped connection or a failed one, e.g. a 503 while the server's database is
// unreachable, so the page catches up by itself once the server can answer). State is reduced by
// chat-state.ts, which ignores anything already applied, into a store (chat-store.ts) that each
// component reads only what it needs of; the events that arrive together are applied in one update.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { HistoryPolicyDto, SessionHistoryDto } from "@/server/session/history.ts";

import { followChatEvents, type StreamState } from "./chat-event-stream.ts";
import { applyChatEvent, createChatState, type ChatEvent, type ChatState } from "./chat-state.ts";
import { createChatStore } from "./chat-store.ts";

type Action = { type: "load"; history: SessionHistoryDto & HistoryPolicyDto } | { type: "events"; events: ChatEvent[] };

/**
 * A history loaded again once events were applied only brings the title (a rename in the chat list
 * writes it into the cached history); everything else already came through the events.
 */
function reducer(state: ChatState | null, action: Action): ChatState | null {
  if (action.type === "load") {
    if (!state || state.lastEventId === null) return createChatState(action.history);
    const { title } = action.history.session;
    return title === state.title ? state : { ...state, title }; // unchanged: nothing re-renders
  }
  return state ? action.events.reduce(applyChatEvent, state) : state;
}

export function useChat(sessionId: string) {
  const trpc = useTRPC();
  const history = useQuery({
    ...trpc.chat.history.queryOptions({ sessionId }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // One store per chat page (a page is mounted anew for another chat); see chat-store.ts. A history
  // the server rendered the page with is in it from the first render, on the server too.
  const [store] = useState(() => {
    const created = createChatStore();
    if (history.data) created.update(() => createChatState(history.data));
    return created;
  });
  const [stream, setStream] = useState<StreamState>({ status: "connecting", error: null });

  useEffect(() => {
    if (history.data) store.update((state) => reducer(state, { type: "load", history: history.data }));
  }, [history.data, store]);

  const isLoaded = !!history.data;
  useEffect(() => {
    if (!isLoaded) return;
    const abort = new AbortController();
    void followChatEvents({
      sessionId,
      afterId: store.get()?.lastEventId ?? null, // the history's, or what this page already applied
      signal: abort.signal,
      onEvents: (events) => store.update((state) => reducer(state, { type: "events", events })),
      onState: setStream,
    });
    return () => abort.abort();
  }, [sessionId, isLoaded, store]);

  return { store, history, stream };
}
