"use client";
// Beside the composer: the chat's pinned notes (each sent just before the last user message of every
// request until unpinned), a field to pin one, and — while an answer streams on an older overlay
// revision than the chat's — the pending-change notice: the change applies on the answer's next
// request, "Apply now" restarts the answer with it (chat.applyNow, as for a change of the tools),
// "Keep for next request" dismisses the notice.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { PendingChangeNotice } from "@/components/connectors/pending-change-notice.tsx";
import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import { linkButton } from "./excludable-message.tsx";
import { useOverlayControls } from "./overlay-context.tsx";

/** The answer streaming now and the overlay revision of its last request (null before its first). */
export type StreamingOverlays = { turnId: string; revision: number | null };

/** The key of a change pending for the streaming answer, or null when nothing is pending. */
export function pendingOverlayKey(streaming: StreamingOverlays | null, revision: number): string | null {
  return streaming && streaming.revision !== null && streaming.revision < revision
    ? `${streaming.turnId}@${revision}`
    : null;
}

function PinForm({ onPin }: { onPin: (text: string) => Promise<boolean> }) {
  const [text, setText] = useState("");
  return (
    <form
      className="flex min-w-0 flex-1 gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) void onPin(text).then((isPinned) => isPinned && setText(""));
      }}
    >
      <input
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-label="Note to pin"
        placeholder="Pin a note the model sees on every request"
        className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <Button type="submit" variant="secondary" className="py-1" disabled={!text.trim()}>
        Pin
      </Button>
    </form>
  );
}

type Props = { streaming: StreamingOverlays | null; revision: number; error: string | null };

export function PinnedNotes({ streaming, revision, error }: Props) {
  const trpc = useTRPC();
  const controls = useOverlayControls();
  const [kept, setKept] = useState<string | null>(null);
  const applyNow = useMutation(trpc.chat.applyNow.mutationOptions());
  if (!controls) return null;
  const pendingKey = pendingOverlayKey(streaming, revision);
  return (
    <section aria-label="Pinned notes" className="flex flex-col gap-2 text-sm">
      {streaming && pendingKey && pendingKey !== kept && (
        <div data-testid="overlays-pending">
          <PendingChangeNotice
            label="Context overlays changed: they apply on the next request of this answer."
            isApplying={applyNow.isPending}
            onApplyNow={() => applyNow.mutate({ turnId: streaming.turnId })}
            onKeep={() => setKept(pendingKey)}
          />
        </div>
      )}
      {controls.view.pins.length > 0 && (
        <ul className="flex flex-col gap-1">
          {controls.view.pins.map((pin) => (
            <li
              key={pin.id}
              className="flex items-start gap-2 rounded-md bg-yellow-50 px-2 py-1 text-yellow-950 dark:bg-yellow-950 dark:text-yellow-100"
              data-testid="pinned-note"
            >
              <span className="text-xs font-medium uppercase text-yellow-800 dark:text-yellow-300">Pinned</span>
              <span className="min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{pin.text}</span>
              <button type="button" className={linkButton} onClick={() => controls.actions.remove(pin.id)}>
                Unpin
              </button>
            </li>
          ))}
        </ul>
      )}
      <PinForm onPin={controls.actions.pin} />
      {(error || applyNow.error) && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error ?? applyNow.error?.message}
        </p>
      )}
    </section>
  );
}
