"use client";
// Popover: Radix's non-modal dialog anchored to its trigger (Escape and a click outside close it,
// focus moves into it on open and back to the trigger on close), styled for Patchbay. Give the
// content an accessible name with `aria-label`.
import * as PopoverPrimitive from "@radix-ui/react-popover";
import type { ComponentProps } from "react";

import { cn } from "./cn.ts";

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;

export function PopoverContent({
  className,
  sideOffset = 4,
  align = "start",
  ...props
}: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        sideOffset={sideOffset}
        align={align}
        collisionPadding={8}
        {...props}
        className={cn(
          "z-50 rounded-md border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg outline-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100",
          className,
        )}
      />
    </PopoverPrimitive.Portal>
  );
}
