// The search box above a list of chats: filters by title as you type (see filter-sessions.ts).
// ⌘/Ctrl+K focuses it (session-sidebar.tsx), through `inputRef`.
import type { Ref } from "react";

import { SearchIcon } from "@/components/ui/icons.tsx";

type Props = { value: string; onChange: (value: string) => void; inputRef?: Ref<HTMLInputElement> };

export function SessionSearch({ value, onChange, inputRef }: Props) {
  return (
    <div className="relative">
      <SearchIcon className="pointer-events-none absolute left-2 top-1/2 size-4 -translate-y-1/2 text-zinc-500" />
      <input
        ref={inputRef}
        type="search"
        aria-label="Search chats"
        placeholder="Search chats"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="w-full rounded-md border border-zinc-300 bg-transparent py-1.5 pl-8 pr-2 text-sm placeholder:text-zinc-500 dark:border-zinc-700"
      />
    </div>
  );
}
