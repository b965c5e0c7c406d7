"use client";
// One chat session in the list, with inline rename and a two-step delete.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

type Session = { id: string; title: string; updatedAt: Date };

type Props = { session: Session; onChanged: () => unknown; onError: (message: string | null) => void };

export function SessionRow({ session, onChanged, onError }: Props) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [title, setTitle] = useState(session.title);
  const callbacks = {
    onSuccess: () => {
      onError(null);
      setMode("view");
      return onChanged();
    },
    onError: (error: { message: string }) => onError(error.message),
  };
  const rename = useMutation(trpc.session.rename.mutationOptions(callbacks));
  const remove = useMutation(trpc.session.delete.mutationOptions(callbacks));

  function submitRename(event: FormEvent) {
    event.preventDefault();
    rename.mutate({ id: session.id, title });
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
          <Button type="submit" disabled={rename.isPending}>
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
    <li className="flex flex-wrap items-center gap-2 p-3" aria-label={session.title}>
      <div className="min-w-0 flex-1">
        <Link href={`/s/${session.id}`} className="block truncate font-medium underline-offset-2 hover:underline">
          {session.title}
        </Link>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Updated {session.updatedAt.toLocaleString()}</p>
      </div>
      {mode === "confirm-delete" ? (
        <>
          <span className="text-sm">Delete this chat?</span>
          <Button variant="danger" onClick={() => remove.mutate({ id: session.id })} disabled={remove.isPending}>
            Delete
          </Button>
          <Button variant="ghost" onClick={() => setMode("view")}>
            Keep
          </Button>
        </>
      ) : (
        <>
          <Button
            variant="secondary"
            onClick={() => {
              setTitle(session.title);
              setMode("rename");
            }}
          >
            Rename
          </Button>
          <Button variant="ghost" onClick={() => setMode("confirm-delete")}>
            Delete
          </Button>
        </>
      )}
    </li>
  );
}
