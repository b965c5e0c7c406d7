"use client";
// A message of the conversation with its context control: "Exclude from context" leaves it out of
// what the model is sent from the next request on (the stored chat keeps it); an excluded message is
// dimmed under the label "Excluded from context" with "Include again". Without overlays (outside a
// chat, or for a message that is never sent again) it renders its children as they are.
import type { ReactNode } from "react";

import { useOverlayControls } from "./overlay-context.tsx";

const linkButton =
  "rounded px-1 text-xs text-zinc-500 underline-offset-2 hover:text-zinc-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:text-zinc-200";

type Props = {
  messageId: string;
  /** False for the message being answered: the model always gets it. */
  canExclude?: boolean;
  /** Where the control sits: "end" for the user's messages (right-aligned). */
  align?: "start" | "end";
  children: ReactNode;
};

export function ExcludedLabel({ onInclude, what = "" }: { onInclude: () => void; what?: string }) {
  return (
    <p className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="excluded-label">
      <span className="rounded bg-zinc-200 px-1.5 py-0.5 font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
        Excluded from context
      </span>
      <button type="button" className={linkButton} onClick={onInclude}>
        Include again{what}
      </button>
    </p>
  );
}

export function ExcludableMessage({ messageId, canExclude = true, align = "start", children }: Props) {
  const controls = useOverlayControls();
  if (!controls) return <>{children}</>;
  const excluded = controls.view.excludedMessages.get(messageId);
  const alignment = align === "end" ? "items-end" : "items-start";
  if (excluded)
    return (
      <div className={`flex flex-col gap-1 ${alignment}`} data-testid="excluded-message" data-message-id={messageId}>
        <ExcludedLabel onInclude={() => controls.actions.remove(excluded.id)} />
        <div className={`flex w-full flex-col gap-2 opacity-50 ${alignment}`}>{children}</div>
      </div>
    );
  return (
    <div className={`flex flex-col gap-2 ${alignment}`} data-message-id={messageId}>
      {children}
      {canExclude && (
        <button type="button" className={linkButton} onClick={() => controls.actions.excludeMessage(messageId)}>
          Exclude from context
        </button>
      )}
    </div>
  );
}

export { linkButton };
