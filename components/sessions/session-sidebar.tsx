"use client";
// The chat pages' list of chats: New chat, search by title, and a link per chat (the open one
// marked current) with its Rename / Delete menu. Wide screens show it as a column beside the chat;
// narrow screens get a "Chats" button in the chat's toolbar that opens the same list in a sheet.
// ⌘/Ctrl+K (shortcuts.ts) focuses the search: in the column, or in the sheet it opens.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { useRef, useState, type RefObject } from "react";

import { SEARCH_CHATS_EVENT, useWindowEvent } from "@/components/chat/shortcuts.ts";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { MenuIcon, PlusIcon } from "@/components/ui/icons.tsx";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/sheet.tsx";

import { filterSessionsByTitle } from "./filter-sessions.ts";
import { SessionSearch } from "./session-search.tsx";
import { SidebarSessionItem } from "./sidebar-session-item.tsx";

type NavProps = { onNavigate?: () => void; searchRef: RefObject<HTMLInputElement | null> };

function SessionNav({ onNavigate, searchRef }: NavProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { sessionId } = useParams<{ sessionId?: string }>();
  const sessions = useQuery(trpc.session.list.queryOptions());
  const [query, setQuery] = useState("");
  const [actionError, setActionError] = useState<string | null>(null);
  const create = useMutation(
    trpc.session.create.mutationOptions({
      onSuccess: (session) => {
        void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
        onNavigate?.();
        router.push(`/s/${session.id}`);
      },
    }),
  );
  const shown = filterSessionsByTitle(sessions.data ?? [], query);

  return (
    <div className="flex min-h-0 flex-col gap-3">
      <Button variant="secondary" onClick={() => create.mutate(undefined)} disabled={create.isPending}>
        <PlusIcon />
        New chat
      </Button>
      {create.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {create.error.message}
        </p>
      )}
      <SessionSearch value={query} onChange={setQuery} inputRef={searchRef} />
      {sessions.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {sessions.error.message}
        </p>
      )}
      {sessions.data && shown.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {query.trim() ? "No chat title matches." : "No chats yet."}
        </p>
      )}
      {actionError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {actionError}
        </p>
      )}
      <ul aria-label="Chats" className="flex min-h-0 flex-col gap-0.5 overflow-y-auto">
        {shown.map((session) => (
          <SidebarSessionItem
            key={session.id}
            session={session}
            isCurrent={session.id === sessionId}
            onNavigate={onNavigate}
            onError={setActionError}
          />
        ))}
      </ul>
      <Link href="/" onClick={onNavigate} className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
        Manage chats
      </Link>
    </div>
  );
}

/** The width from which the list is a column (Tailwind's md). */
const WITH_COLUMN = "(min-width: 768px)";

/** The column beside the chat, from md up. */
export function SessionSidebar() {
  const searchRef = useRef<HTMLInputElement>(null);
  useWindowEvent(SEARCH_CHATS_EVENT, () => searchRef.current?.focus());
  return (
    <aside
      aria-label="Chat list"
      className="hidden w-64 shrink-0 border-r border-zinc-200 md:block dark:border-zinc-800"
    >
      <div className="sticky top-0 flex max-h-dvh flex-col p-3">
        <SessionNav searchRef={searchRef} />
      </div>
    </aside>
  );
}

/** The "Chats" button and sheet that replace the column on narrow screens. */
export function SessionSidebarSheet() {
  const [isOpen, setIsOpen] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  useWindowEvent(SEARCH_CHATS_EVENT, () => {
    if (!window.matchMedia(WITH_COLUMN).matches) setIsOpen(true);
  });
  return (
    <Sheet open={isOpen} onOpenChange={setIsOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" className="px-2 md:hidden">
          <MenuIcon />
          Chats
        </Button>
      </SheetTrigger>
      <SheetContent
        side="left"
        title="Chats"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          searchRef.current?.focus();
        }}
      >
        <SessionNav onNavigate={() => setIsOpen(false)} searchRef={searchRef} />
      </SheetContent>
    </Sheet>
  );
}
