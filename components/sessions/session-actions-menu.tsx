"use client";
// The "⋯" menu of one chat (in the chat list and in the sidebar): Rename and Delete. Both move focus
// into the row (the title field, the delete confirmation's Keep), so the menu must not pull focus
// back to its trigger when it closes for them. Not modal: the page around the menu stays in the
// accessibility tree (no aria-hidden over focusable content); Escape, Tab and a click outside still
// close it.
import { useRef } from "react";

import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu.tsx";
import { MoreIcon } from "@/components/ui/icons.tsx";

type Props = { title: string; triggerClassName: string; onRename: () => void; onDelete: () => void };

export function SessionActionsMenu({ title, triggerClassName, onRename, onDelete }: Props) {
  const isLeavingMenu = useRef(false);
  const leaveFor = (action: () => void) => () => {
    isLeavingMenu.current = true;
    action();
  };
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger aria-label={`Actions for ${title}`} className={triggerClassName}>
        <MoreIcon />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        onCloseAutoFocus={(event) => {
          if (isLeavingMenu.current) event.preventDefault();
          isLeavingMenu.current = false;
        }}
      >
        <DropdownMenuItem onSelect={leaveFor(onRename)}>Rename</DropdownMenuItem>
        <DropdownMenuItem onSelect={leaveFor(onDelete)} className="text-red-700 dark:text-red-300">
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
