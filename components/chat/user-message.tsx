"use client";
// A user's message in the conversation. The last one can be edited: the pencil opens an inline
// editor (Enter sends, Shift+Enter adds a line, Escape cancels) and sending replaces the message
// and its answers with a fresh answer to the new text. ↑ in the empty composer opens the same editor.
// Copy and the pencil show on hover or keyboard focus (message-actions.tsx).
import { memo, useState, type KeyboardEvent } from "react";

import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";
import { PencilIcon } from "@/components/ui/icons.tsx";

import { CopyAction, IconAction, revealOnHover } from "./message-actions.tsx";
import { EDIT_LAST_MESSAGE_EVENT, useWindowEvent } from "./shortcuts.ts";

type Props = {
  text: string;
  /** Given when the message may be edited now; resolves to whether the edit was accepted. */
  onEdit?: (text: string) => Promise<boolean>;
};

function UserMessageContent({ text, onEdit }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  useWindowEvent(EDIT_LAST_MESSAGE_EVENT, onEdit ? () => setDraft(text) : null);

  async function submit() {
    if (!onEdit || draft === null || !draft.trim() || isSending) return;
    setIsSending(true);
    const isAccepted = await onEdit(draft);
    setIsSending(false);
    if (isAccepted) setDraft(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Escape") setDraft(null);
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  if (draft !== null)
    return (
      <form
        className="flex w-full flex-col gap-2 self-end sm:w-[85%]"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <textarea
          aria-label="Edit message"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
          rows={Math.min(8, Math.max(2, draft.split("\n").length))}
          className="w-full resize-y rounded-lg border border-zinc-300 bg-transparent px-3 py-2 text-sm dark:border-zinc-700"
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={() => setDraft(null)}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSending || !draft.trim() || draft === text}>
            Send edit
          </Button>
        </div>
      </form>
    );

  return (
    <div className="group flex max-w-[85%] items-start gap-1 self-end">
      <div className={cn("mt-1 flex", revealOnHover)}>
        <CopyAction text={text} label="Copy message" />
        {onEdit && (
          <IconAction label="Edit message" onClick={() => setDraft(text)}>
            <PencilIcon className="size-3.5" />
          </IconAction>
        )}
      </div>
      <p
        className="min-w-0 whitespace-pre-wrap rounded-lg bg-zinc-100 px-3 py-2 [overflow-wrap:anywhere] dark:bg-zinc-800"
        data-testid="user-message"
      >
        {text}
      </p>
    </div>
  );
}

/** Re-renders when its text changes or it becomes (un)editable: `onEdit` always calls the latest handler. */
export const UserMessage = memo(
  UserMessageContent,
  (prev, next) => prev.text === next.text && !prev.onEdit === !next.onEdit,
);
