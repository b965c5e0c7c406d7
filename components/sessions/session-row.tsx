"use client";
// One chat session in the list; its actions menu offers Rename (inline) and Delete (confirmed in the
// row). The menu is not modal, as in the chat sidebar (see sidebar-session-item.tsx).
import Link from "next/link";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button.tsx";

import { SessionActionsMenu } from "./session-actions-menu.tsx";
import { useSessionActions } from "./use-session-actions.ts";

type Session = { id: string; title: string; updatedAt: Date };

type Props = { session: Session; onError: (message: string | null) => void };

export function SessionRow({ session, onError }: Props) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [title, setTitle] = useState(session.title);
  const done = () => {
    onError(null);
    setMode("view");
  };
  const actions = useSessionActions(session.id, { onRenamed: done, onDeleted: done, onError });

  function submitRename(event: FormEvent) {
    event.preventDefault();
    actions.rename(title);
  }

  if (mode === "rename") {
    return (
      <li className="p-3">
        <form onSubmit={submitRename} className="flex flex-wrap items-center gap-2">
          <label htmlFor={`title-${session.id}`} className="sr-only">
            Session title
          </label>
          <input
            id={`title-${session.id}`}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            autoFocus
            maxLength={200}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm dark:border-zinc-700"
          />
          <Button type="submit" disabled={actions.isRenaming}>
            Save
          </Button>
          <Button type="button" variant="ghost" onClick={() => setMode("view")}>
            Cancel
          </Button>
        </form>
      </li>
    );
  }

  return (
    <li className="flex items-center gap-2 p-3" aria-label={session.title}>
      <div className="min-w-0 flex-1">
        <Link href={`/s/${session.id}`} className="block truncate font-medium underline-offset-2 hover:underline">
          {session.title}
        </Link>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Updated {session.updatedAt.toLocaleString()}</p>
      </div>
      {mode === "confirm-delete" ? (
        <div className="flex flex-wrap items-center justify-end gap-2">
          <span className="text-sm">Delete this chat?</span>
          <Button variant="danger" onClick={actions.remove} disabled={actions.isRemoving}>
            Delete
          </Button>
          <Button variant="ghost" onClick={() => setMode("view")} autoFocus>
            Keep
          </Button>
        </div>
      ) : (
        <SessionActionsMenu
          title={session.title}
          triggerClassName="rounded-md p-2 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800"
          onRename={() => {
            setTitle(session.title);
            setMode("rename");
          }}
          onDelete={() => setMode("confirm-delete")}
        />
      )}
    </li>
  );
}
