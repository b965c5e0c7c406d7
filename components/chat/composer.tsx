"use client";
// The message box: Enter sends and Shift+Enter adds a line, or, with "Enter: new line" chosen, Enter
// adds a line and ⌘/Ctrl+Enter sends (⌘/Ctrl+Enter sends either way). ↑ in the empty box edits the
// last message (shortcuts.ts). While an answer streams it offers Stop.
// With no model provider to answer (none configured by the administrator, none of the user's own),
// it says what to do and Send stays disabled until one exists; the text typed is kept.
import Link from "next/link";
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";

import { Button } from "@/components/ui/button.tsx";

import { EDIT_LAST_MESSAGE_EVENT, useEnterAddsLine } from "./shortcuts.ts";

type Props = {
  isStreaming: boolean;
  isSending: boolean;
  /** True when no model provider can answer: Send is disabled and the notice says what to do. */
  hasNoProvider: boolean;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
  /** The row under the text: the pickers and the tools summary. */
  children?: ReactNode;
};

/** What a key does in the composer: send, edit the last message, or nothing special. */
export function composerKeyAction(
  key: { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; isComposing: boolean },
  options: { isEnterNewline: boolean; isEmpty: boolean },
): "send" | "edit-last" | null {
  if (key.isComposing) return null;
  if (key.key === "Enter" && (key.ctrlKey || key.metaKey)) return "send";
  if (key.key === "Enter" && !key.shiftKey && !options.isEnterNewline) return "send";
  if (key.key === "ArrowUp" && options.isEmpty && !key.shiftKey) return "edit-last";
  return null;
}

/** "Enter = new line", pressed or not; its name never says "send" (the Send button's word). */
function EnterModeToggle() {
  const [isNewline, setNewline] = useEnterAddsLine();
  return (
    <button
      type="button"
      aria-pressed={isNewline}
      title={isNewline ? "Enter adds a new line; Ctrl+Enter sends" : "Enter sends; Shift+Enter adds a new line"}
      onClick={() => setNewline(!isNewline)}
      className="rounded-md px-1.5 py-1 text-xs text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 aria-pressed:bg-zinc-200 aria-pressed:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:aria-pressed:bg-zinc-700 dark:aria-pressed:text-zinc-100"
    >
      Enter = new line
    </button>
  );
}

export function Composer({ isStreaming, isSending, hasNoProvider, onSend, onStop, children }: Props) {
  const [text, setText] = useState("");
  const [isEnterNewline] = useEnterAddsLine();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || isStreaming || isSending || hasNoProvider) return;
    if (await onSend(text)) setText("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    const { key, shiftKey, ctrlKey, metaKey } = event;
    const keyInfo = { key, shiftKey, ctrlKey, metaKey, isComposing: event.nativeEvent.isComposing };
    const action = composerKeyAction(keyInfo, { isEnterNewline, isEmpty: text === "" });
    if (action) event.preventDefault();
    if (action === "send") void submit();
    if (action === "edit-last") window.dispatchEvent(new Event(EDIT_LAST_MESSAGE_EVENT));
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
      {hasNoProvider && (
        <p
          id="composer-no-provider"
          role="status"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          No model provider is set up yet, so nothing can answer. Add an API key or an OpenAI-compatible endpoint in{" "}
          <Link href="/settings/providers" className="font-medium underline">
            Settings → Providers
          </Link>{" "}
          (or ask the administrator to configure one), then send your message.
        </p>
      )}
      <label htmlFor="composer" className="sr-only">
        Message
      </label>
      <textarea
        id="composer"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        aria-describedby={hasNoProvider ? "composer-no-provider" : undefined}
        placeholder="Message Patchbay…"
        className="min-h-12 w-full resize-y rounded-md border border-zinc-300 bg-transparent px-3 py-2 text-sm dark:border-zinc-700"
      />
      <div className="flex items-center gap-2">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
          {children}
          <EnterModeToggle />
        </div>
        {isStreaming ? (
          <Button type="button" variant="secondary" onClick={onStop}>
            Stop
          </Button>
        ) : (
          <Button type="submit" disabled={isSending || hasNoProvider || !text.trim()}>
            Send
          </Button>
        )}
      </div>
    </form>
  );
}
