"use client";
// One chat in the browser: loads the history once, then follows the live event stream from the
// history's last event id (the tRPC SSE link resumes from the last tracked id by itself after a
// dropped connection). State is reduced by chat-state.ts, which ignores anything already applied,
// into a store (chat-store.ts) that each component reads only what it needs of.
// When the stream ends on an error (the server answered 503 while its database was unreachable),
// it is opened again after a pause, so the page catches up by itself once the server can answer.
import { useQuery } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { HistoryPolicyDto, SessionHistoryDto } from "@/server/session/history.ts";

import { applyChatEvent, createChatState, type ChatEvent, type ChatState } from "./chat-state.ts";
import { createChatStore } from "./chat-store.ts";

/** Pause before opening a failed event stream again. */
const RESUBSCRIBE_AFTER_MS = 2_000;

type Action = { type: "load"; history: SessionHistoryDto & HistoryPolicyDto } | { type: "event"; event: ChatEvent };

/**
 * A history loaded again once events were applied only brings the title (a rename in the chat list
 * writes it into the cached history); everything else already came through the events.
 */
function reducer(state: ChatState | null, action: Action): ChatState | null {
  if (action.type === "load")
    return state && state.lastEventId !== null
      ? { ...state, title: action.history.session.title }
      : createChatState(action.history);
  return state ? applyChatEvent(state, action.event) : state;
}

export function useChat(sessionId: string) {
  const trpc = useTRPC();
  const history = useQuery({
    ...trpc.chat.history.queryOptions({ sessionId }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // One store per chat page (a page is mounted anew for another chat); see chat-store.ts.
  const [store] = useState(createChatStore);
  const dispatch = (action: Action) => store.update((state) => reducer(state, action));

  useEffect(() => {
    if (history.data) store.update((state) => reducer(state, { type: "load", history: history.data }));
  }, [history.data, store]);

  const subscription = useSubscription(
    trpc.chat.events.subscriptionOptions(
      { sessionId, lastEventId: history.data?.lastEventId ?? null },
      {
        enabled: !!history.data,
        onData: (tracked) => dispatch({ type: "event", event: tracked.data }),
      },
    ),
  );

  const isStreamBroken = subscription.status === "error";
  const { reset } = subscription;
  useEffect(() => {
    if (!isStreamBroken) return;
    const timer = setTimeout(reset, RESUBSCRIBE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [isStreamBroken, reset]);

  return { store, history, subscription, isStreamBroken };
}
