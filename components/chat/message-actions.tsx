"use client";
// The small icon actions beside a message: Copy (its text, with "Copied" read out and a check shown
// for a moment) and, under the chat's last settled answer, Regenerate. On wide screens they show on
// hover or keyboard focus of their message (the message carries Tailwind's `group`); on touch
// screens they always show.
import { useState, type ReactNode } from "react";

import { cn } from "@/components/ui/cn.ts";
import { CheckIcon, CopyIcon, RefreshIcon } from "@/components/ui/icons.tsx";
import { Tooltip } from "@/components/ui/tooltip.tsx";

import { copyText } from "./copy-text.ts";

/** Hidden until the message is hovered or holds focus, on screens wide enough to hover. */
export const revealOnHover = "md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100";

const iconButton =
  "rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800";

export function IconAction(props: { label: string; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <Tooltip content={props.label}>
      <button
        type="button"
        aria-label={props.label}
        onClick={props.onClick}
        disabled={props.disabled}
        className={iconButton}
      >
        {props.children}
      </button>
    </Tooltip>
  );
}

export function CopyAction({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    setState((await copyText(text)) ? "copied" : "failed");
    setTimeout(() => setState("idle"), 1500);
  };
  return (
    <>
      <IconAction label={label} onClick={() => void copy()}>
        {state === "copied" ? <CheckIcon className="size-3.5" /> : <CopyIcon className="size-3.5" />}
      </IconAction>
      <span aria-live="polite" className="sr-only">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}
      </span>
    </>
  );
}

/** Under a settled answer: Copy its text, and Regenerate when it is the chat's last answer. */
export function AnswerActions({ text, onRegenerate }: { text: string; onRegenerate?: () => void }) {
  return (
    <div className={cn("flex items-center gap-0.5", revealOnHover)} data-testid="answer-actions">
      {text && <CopyAction text={text} label="Copy answer" />}
      {onRegenerate && (
        <IconAction label="Regenerate" onClick={onRegenerate}>
          <RefreshIcon className="size-3.5" />
        </IconAction>
      )}
    </div>
  );
}
