"use client";
// The message box: Enter sends, Shift+Enter adds a line. While an answer streams it offers Stop.
// With no model provider to answer (none configured by the administrator, none of the user's own),
// it says what to do and Send stays disabled until one exists; the text typed is kept.
import Link from "next/link";
import { useState, type FormEvent, type KeyboardEvent } from "react";

import { Button } from "@/components/ui/button.tsx";

type Props = {
  isStreaming: boolean;
  isSending: boolean;
  /** True when no model provider can answer: Send is disabled and the notice says what to do. */
  hasNoProvider: boolean;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
};

export function Composer({ isStreaming, isSending, hasNoProvider, onSend, onStop }: Props) {
  const [text, setText] = useState("");

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || isStreaming || isSending || hasNoProvider) return;
    if (await onSend(text)) setText("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
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
      <div className="flex items-end gap-2">
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
          className="min-h-12 flex-1 resize-y rounded-md border border-zinc-300 bg-transparent px-3 py-2 text-sm dark:border-zinc-700"
        />
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
