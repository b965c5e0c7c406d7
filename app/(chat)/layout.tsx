import Link from "next/link";
import type { ReactNode } from "react";

import { Button } from "@/components/ui/button.tsx";
import { requireUser } from "@/server/auth/session.ts";

import { signOutAction } from "../(auth)/sign-in/actions.ts";

export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between gap-4 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <nav className="flex items-center gap-4">
          <Link href="/" className="text-lg font-semibold">
            Patchbay
          </Link>
          <Link href="/settings/connectors" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
            Connectors
          </Link>
          <Link href="/settings/personas" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
            Personas
          </Link>
        </nav>
        <div className="flex items-center gap-3 text-sm">
          <span className="truncate text-zinc-600 dark:text-zinc-400" data-testid="signed-in-as">
            {user.name ?? user.email}
          </span>
          <form action={signOutAction}>
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </form>
        </div>
      </header>
      {children}
    </div>
  );
}
