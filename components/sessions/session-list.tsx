"use client";
// The signed-in user's chat sessions: create (and open the new chat, as the sidebar's New chat does),
// search by title, rename inline, delete with confirmation. Errors from the server are shown as the
// messages the API chose for users.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import { filterSessionsByTitle } from "./filter-sessions.ts";
import { SessionRow } from "./session-row.tsx";
import { SessionSearch } from "./session-search.tsx";

export function SessionList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.session.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
  const router = useRouter();
  const create = useMutation(
    trpc.session.create.mutationOptions({
      onSuccess: (session) => {
        void invalidate();
        router.push(`/s/${session.id}`);
      },
    }),
  );
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const shown = filterSessionsByTitle(sessions.data ?? [], query);

  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h1 id="sessions-heading" className="text-xl font-semibold">
          Your chats
        </h1>
        <Button
          onClick={() => create.mutate(undefined, { onError: (e) => setError(e.message) })}
          disabled={create.isPending}
        >
          New chat
        </Button>
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      {sessions.isPending && <p className="text-sm text-zinc-500">Loading…</p>}
      {sessions.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {sessions.error.message}
        </p>
      )}
      {sessions.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No chats yet. Start one with “New chat”.</p>
      )}
      {sessions.data && sessions.data.length > 0 && <SessionSearch value={query} onChange={setQuery} />}
      {sessions.data && sessions.data.length > 0 && shown.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No chat title matches “{query.trim()}”.</p>
      )}
      {shown.length > 0 && (
        <ul
          aria-label="Chat sessions"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {shown.map((session) => (
            <SessionRow key={session.id} session={session} onError={setError} />
          ))}
        </ul>
      )}
    </section>
  );
}
