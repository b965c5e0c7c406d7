"use client";
// Select: Radix's listbox pattern (a `combobox` trigger, arrow keys, typeahead, Escape, focus
// return), styled for Patchbay. `options` are value + label pairs; Radix forbids an empty value, so
// callers map "none" to a sentinel of their own. Give it an accessible name with `aria-label`.
import * as SelectPrimitive from "@radix-ui/react-select";

import { cn } from "./cn.ts";
import { CheckIcon, ChevronDownIcon } from "./icons.tsx";

export type SelectProps<V extends string> = {
  value: V;
  options: readonly { value: V; label: string }[];
  onValueChange: (value: V) => void;
  "aria-label": string;
  disabled?: boolean;
  className?: string;
  /** Opens the list as soon as it mounts (select-on-first-use.tsx mounts it on the first click). */
  defaultOpen?: boolean;
  /** Focuses the trigger as soon as it mounts. */
  autoFocus?: boolean;
};

/** The trigger's look, shared with the light stand-in of select-on-first-use.tsx. */
export const selectTriggerClass =
  "inline-flex items-center justify-between gap-1 rounded-md border border-zinc-300 bg-transparent px-2 py-0.5 text-xs focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-700";

export function Select<V extends string>(props: SelectProps<V>) {
  const { value, options, onValueChange, disabled, className, defaultOpen, autoFocus } = props;
  return (
    <SelectPrimitive.Root
      value={value}
      onValueChange={(next) => onValueChange(next as V)}
      disabled={disabled}
      defaultOpen={defaultOpen}
    >
      <SelectPrimitive.Trigger
        aria-label={props["aria-label"]}
        autoFocus={autoFocus}
        className={cn(selectTriggerClass, className)}
      >
        <SelectPrimitive.Value />
        <SelectPrimitive.Icon>
          <ChevronDownIcon className="size-3" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 min-w-[var(--radix-select-trigger-width)] rounded-md border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <SelectPrimitive.Viewport>
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                className="relative flex cursor-default items-center gap-2 rounded py-1 pr-2 pl-6 text-xs outline-none select-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800"
              >
                <SelectPrimitive.ItemIndicator className="absolute left-1">
                  <CheckIcon className="size-3" />
                </SelectPrimitive.ItemIndicator>
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
