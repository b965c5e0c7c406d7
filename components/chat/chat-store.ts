"use client";
// The open chat's state (chat-state.ts) in a small store the components subscribe to, so each one
// re-renders only when what it reads changed: the conversation follows every streamed chunk, the
// page around it (title, revisions, the streaming turn, the composer and its pickers) only the few
// values it shows. A chunk thus re-renders the live exchange and nothing else (before, every chunk
// re-rendered the whole page and its queries' hooks). The store reaches the conversation through
// React context; the context value is the store, which never changes, so no context update walks
// the page's tree either.
import { createContext, useContext, useSyncExternalStore } from "react";

import type { ChatState } from "./chat-state.ts";

export type ChatStore = {
  get: () => ChatState | null;
  /** Replaces the state with `update(state)`; subscribers hear of it only when it changed. */
  update: (update: (state: ChatState | null) => ChatState | null) => void;
  subscribe: (onChange: () => void) => () => void;
};

export function createChatStore(): ChatStore {
  let state: ChatState | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    update: (update) => {
      const next = update(state);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

function isShallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}

/**
 * `select`, remembering its last answer: the same state gives the same value, and a new value equal
 * key by key to the last one is replaced by it (so a component reading it sees no change). Made once,
 * outside components, for useChatSelector.
 */
export function memoizeSelector<T>(select: (state: ChatState | null) => T): (state: ChatState | null) => T {
  let last: { state: ChatState | null; value: T } | null = null;
  return (state) => {
    if (last && last.state === state) return last.value;
    const value = select(state);
    last = { state, value: last && isShallowEqual(last.value, value) ? last.value : value };
    return last.value;
  };
}

/** What a memoised selector picks from the chat's state; the component re-renders when it changed. */
export function useChatSelector<T>(store: ChatStore, selector: (state: ChatState | null) => T): T {
  const getSnapshot = () => selector(store.get());
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}

const ChatStoreContext = createContext<ChatStore | null>(null);

export const ChatStoreProvider = ChatStoreContext.Provider;

/** The chat's whole state, for the conversation (re-renders on every change). */
export function useChatState(): ChatState {
  const store = useContext(ChatStoreContext);
  if (!store) throw new Error("useChatState: no ChatStoreProvider above");
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  if (!state) throw new Error("useChatState: the chat has not loaded");
  return state;
}
