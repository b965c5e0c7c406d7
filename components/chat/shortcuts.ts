"use client";
// The chat page's keyboard shortcuts, as window events between components that do not share state:
// ⌘/Ctrl+K asks the chat list to focus its search (opening its sheet on narrow screens), ↑ in an
// empty composer asks the last user message to open its editor. `useChatShortcuts` listens on the
// window: ⌘/Ctrl+K, and Escape stopping the streaming answer unless a dialog, menu or list box
// (which Escape closes) is open. The Enter key's job in the composer (send, or a new line with
// ⌘/Ctrl+Enter sending) is a choice kept in localStorage.
import { useEffect, useSyncExternalStore } from "react";

export const SEARCH_CHATS_EVENT = "patchbay-search-chats";
export const EDIT_LAST_MESSAGE_EVENT = "patchbay-edit-last-message";
const ENTER_MODE_KEY = "patchbay-enter-newline";
const ENTER_MODE_EVENT = "patchbay-enter-mode-change";

export function isSearchShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k";
}

/** Something Escape closes first is open: a dialog, a menu or a select's list box. */
function isLayerOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

export function useChatShortcuts(onStop: (() => void) | null) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isSearchShortcut(event)) {
        event.preventDefault();
        window.dispatchEvent(new Event(SEARCH_CHATS_EVENT));
      } else if (event.key === "Escape" && onStop && !event.defaultPrevented && !isLayerOpen()) {
        event.preventDefault();
        onStop();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [onStop]);
}

/** Calls `handler` when `eventName` is dispatched on the window. */
export function useWindowEvent(eventName: string, handler: (() => void) | null) {
  useEffect(() => {
    if (!handler) return;
    window.addEventListener(eventName, handler);
    return () => window.removeEventListener(eventName, handler);
  }, [eventName, handler]);
}

function subscribeEnterMode(onChange: () => void): () => void {
  window.addEventListener(ENTER_MODE_EVENT, onChange);
  return () => window.removeEventListener(ENTER_MODE_EVENT, onChange);
}

function readEnterMode(): boolean {
  try {
    return window.localStorage.getItem(ENTER_MODE_KEY) === "1";
  } catch {
    return false;
  }
}

/** Whether Enter adds a new line (⌘/Ctrl+Enter sends) instead of sending; false by default. */
export function useEnterAddsLine(): [boolean, (isNewline: boolean) => void] {
  const isNewline = useSyncExternalStore(subscribeEnterMode, readEnterMode, () => false);
  const setNewline = (next: boolean) => {
    try {
      if (next) window.localStorage.setItem(ENTER_MODE_KEY, "1");
      else window.localStorage.removeItem(ENTER_MODE_KEY);
    } catch {
      // Storage off: the choice lasts until the page reloads.
    }
    window.dispatchEvent(new Event(ENTER_MODE_EVENT));
  };
  return [isNewline, setNewline];
}
