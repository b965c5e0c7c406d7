"use client";
// The message box: Enter sends, Shift+Enter adds a line. While an answer streams it offers Stop.
import { useState, type FormEvent, type KeyboardEvent } from "react";

import { Button } from "@/components/ui/button.tsx";

type Props = {
  isStreaming: boolean;
  isSending: boolean;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
};

export function Composer({ isStreaming, isSending, onSend, onStop }: Props) {
  const [text, setText] = useState("");

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || isStreaming || isSending) return;
    if (await onSend(text)) setText("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex items-end gap-2">
      <label htmlFor="composer" className="sr-only">
        Message
      </label>
      <textarea
        id="composer"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        placeholder="Message Patchbay…"
        className="min-h-12 flex-1 resize-y rounded-md border border-zinc-300 bg-transparent px-3 py-2 text-sm dark:border-zinc-700"
      />
      {isStreaming ? (
        <Button type="button" variant="secondary" onClick={onStop}>
          Stop
        </Button>
      ) : (
        <Button type="submit" disabled={isSending || !text.trim()}>
          Send
        </Button>
      )}
    </form>
  );
}
