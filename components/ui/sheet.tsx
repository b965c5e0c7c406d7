"use client";
// Sheet: a Radix Dialog that slides in from an edge (drawers: the turn details, the chat list; the
// Tools panel rises from the bottom on phones). Focus is trapped while open, Escape and the overlay close it,
// focus returns to the trigger. Every sheet has a title (read out when it opens) and a close button.
import * as DialogPrimitive from "@radix-ui/react-dialog";
import type { ComponentProps, ReactNode } from "react";

import { cn } from "./cn.ts";
import { CloseIcon } from "./icons.tsx";

export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetClose = DialogPrimitive.Close;

type Side = "left" | "right" | "bottom";

const sides: Record<Side, string> = {
  left: "inset-y-0 left-0 border-r motion-safe:data-[state=open]:animate-[sheet-in-left_150ms_ease-out]",
  right: "inset-y-0 right-0 border-l motion-safe:data-[state=open]:animate-[sheet-in-right_150ms_ease-out]",
  bottom:
    "inset-x-0 bottom-0 max-h-[85dvh] rounded-t-xl border-t motion-safe:data-[state=open]:animate-[sheet-in-bottom_150ms_ease-out]",
};

/** `wide` fits a table of five columns (turn details); `narrow` a list or a form; `full` a bottom sheet. */
const widths = { narrow: "w-[min(24rem,90vw)]", wide: "w-[min(34rem,100vw)]", full: "w-full" } as const;

type Props = Omit<ComponentProps<typeof DialogPrimitive.Content>, "title"> & {
  side?: Side;
  width?: keyof typeof widths;
  title: ReactNode;
  description?: ReactNode;
};

export function SheetContent({
  side = "right",
  width = "narrow",
  title,
  description,
  className,
  children,
  ...props
}: Props) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/40" />
      <DialogPrimitive.Content
        {...(description ? {} : { "aria-describedby": undefined })}
        {...props}
        className={cn(
          "fixed z-50 flex flex-col gap-3 overflow-y-auto border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl focus:outline-none dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100",
          sides[side],
          widths[width],
          className,
        )}
      >
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <DialogPrimitive.Title className="font-semibold">{title}</DialogPrimitive.Title>
            {description && (
              <DialogPrimitive.Description className="text-xs text-zinc-600 dark:text-zinc-400">
                {description}
              </DialogPrimitive.Description>
            )}
          </div>
          <DialogPrimitive.Close
            aria-label="Close"
            className="rounded-md p-1 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800"
          >
            <CloseIcon />
          </DialogPrimitive.Close>
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
