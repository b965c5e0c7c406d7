"use client";
// One chat in the chat sidebar: its link (marked current when open) and an actions menu with Rename
// (an inline title field: Enter saves, Escape cancels) and Delete (confirmed in the row; deleting
// the open chat goes back to the chat list).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";

import { SessionActionsMenu } from "./session-actions-menu.tsx";
import { useSessionActions } from "./use-session-actions.ts";

type Props = {
  session: { id: string; title: string };
  isCurrent: boolean;
  onNavigate?: () => void;
  onError: (message: string | null) => void;
};

const smallButton = "px-2 py-1 text-xs";

/** The inline title field of a chat being renamed: Enter saves, Escape cancels. */
function RenameRow(props: {
  title: string;
  onTitle: (title: string) => void;
  onCancel: () => void;
  onSave: () => void;
  isSaving: boolean;
}) {
  const { title, onTitle, onCancel, onSave, isSaving } = props;
  function submit(event: FormEvent) {
    event.preventDefault();
    onSave();
  }
  return (
    <li>
      <form onSubmit={submit} className="flex flex-col gap-1.5 rounded-md bg-zinc-50 p-1.5 dark:bg-zinc-900">
        <input
          aria-label="Chat title"
          value={title}
          onChange={(event) => onTitle(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && onCancel()}
          autoFocus
          maxLength={200}
          className="w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
        />
        <div className="flex justify-end gap-1.5">
          <Button type="button" variant="ghost" className={smallButton} onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" className={smallButton} disabled={isSaving || !title.trim()}>
            Save
          </Button>
        </div>
      </form>
    </li>
  );
}

export function SidebarSessionItem({ session, isCurrent, onNavigate, onError }: Props) {
  const router = useRouter();
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [title, setTitle] = useState(session.title);
  const actions = useSessionActions(session.id, {
    onRenamed: () => (onError(null), setMode("view")),
    onDeleted: () => {
      onError(null);
      if (!isCurrent) return;
      onNavigate?.();
      router.push("/");
    },
    onError,
  });

  if (mode === "rename")
    return (
      <RenameRow
        title={title}
        onTitle={setTitle}
        onCancel={() => setMode("view")}
        onSave={() => actions.rename(title)}
        isSaving={actions.isRenaming}
      />
    );

  if (mode === "confirm-delete")
    return (
      <li
        aria-label={session.title}
        className="flex flex-col gap-1.5 rounded-md bg-red-50 p-1.5 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
      >
        <p className="[overflow-wrap:anywhere]">Delete “{session.title}”?</p>
        <div className="flex justify-end gap-1.5">
          <Button variant="ghost" className={smallButton} onClick={() => setMode("view")} autoFocus>
            Keep
          </Button>
          <Button variant="danger" className={smallButton} onClick={actions.remove} disabled={actions.isRemoving}>
            Delete
          </Button>
        </div>
      </li>
    );

  return (
    <li aria-label={session.title} className="group flex items-center gap-0.5">
      <Link
        href={`/s/${session.id}`}
        onClick={onNavigate}
        aria-current={isCurrent ? "page" : undefined}
        className={cn(
          "min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800",
          isCurrent && "bg-zinc-100 font-medium dark:bg-zinc-800",
        )}
      >
        {session.title}
      </Link>
      <SessionActionsMenu
        title={session.title}
        triggerClassName="shrink-0 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 data-[state=open]:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800"
        onRename={() => {
          setTitle(session.title);
          setMode("rename");
        }}
        onDelete={() => setMode("confirm-delete")}
      />
    </li>
  );
}
