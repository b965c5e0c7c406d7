"use client";
// The context controls that live with a tool card: "Exclude round" leaves this call, the calls made
// with it and all their results out of what the model is sent (a call and its result go as a pair);
// "Replace result" lets the user write a summary the model sees instead of a long result. An
// excluded round is dimmed under "Excluded from context"; a replaced result says so, with "Restore
// result". The stored chat keeps everything.
import { useState, type ReactNode } from "react";

import { revealOnHover } from "@/components/chat/message-actions.tsx";
import { Button } from "@/components/ui/button.tsx";

import { ExcludedLabel, linkButton } from "./excludable-message.tsx";
import { useOverlayControls } from "./overlay-context.tsx";

type Props = {
  callId: string;
  /** The calls of the same model request (the round). */
  roundCallIds: string[];
  name: string;
  hasResult: boolean;
  children: ReactNode;
};

function SummaryForm({
  name,
  onSave,
  onCancel,
}: {
  name: string;
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [text, setText] = useState("");
  const [isSaving, setIsSaving] = useState(false);
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!text.trim() || isSaving) return;
        setIsSaving(true);
        void onSave(text).then((isSaved) => (isSaved ? onCancel() : setIsSaving(false)));
      }}
    >
      <label className="flex flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
        Summary the model sees instead of the result of {name}
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={3}
          className="rounded-md border border-zinc-300 bg-white p-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
      </label>
      <div className="flex gap-2">
        <Button type="submit" variant="secondary" disabled={!text.trim() || isSaving}>
          Use summary
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function ToolOverlayControls({ callId, roundCallIds, name, hasResult, children }: Props) {
  const controls = useOverlayControls();
  const [isWriting, setIsWriting] = useState(false);
  if (!controls) return <>{children}</>;
  const { view, actions } = controls;
  const round = roundCallIds.map((id) => view.excludedRounds.get(id)).find((overlay) => overlay !== undefined);
  if (round)
    return (
      <div className="flex flex-col gap-1" data-testid="excluded-round" data-call-id={callId}>
        <ExcludedLabel onInclude={() => actions.remove(round.id)} what=" (the whole round)" />
        <div className="opacity-50">{children}</div>
      </div>
    );
  const replaced = view.replacedResults.get(callId);
  return (
    <div className="group flex flex-col gap-1" data-call-id={callId}>
      {children}
      {replaced && (
        <p
          className="rounded-md bg-sky-50 px-2 py-1 text-xs text-sky-900 dark:bg-sky-950 dark:text-sky-100"
          data-testid="replaced-result"
        >
          The model sees your summary instead of this result: “{replaced.text}”{" "}
          <button type="button" className={linkButton} onClick={() => actions.remove(replaced.id)}>
            Restore result
          </button>
        </p>
      )}
      {isWriting ? (
        <SummaryForm
          name={name}
          onSave={(text) => actions.replaceResult(callId, text)}
          onCancel={() => setIsWriting(false)}
        />
      ) : (
        <div className={`flex gap-2 ${revealOnHover}`}>
          <button type="button" className={linkButton} onClick={() => actions.excludeRound(callId)}>
            Exclude round
          </button>
          {hasResult && !replaced && (
            <button type="button" className={linkButton} onClick={() => setIsWriting(true)}>
              Replace result
            </button>
          )}
        </div>
      )}
    </div>
  );
}
