import Link from "next/link";
import type { ReactNode } from "react";

import { navLinks } from "@/components/layout/nav-links.ts";
import { PhoneMenu } from "@/components/layout/phone-menu.tsx";
import { ThemeToggle } from "@/components/theme/theme-toggle.tsx";
import { Button } from "@/components/ui/button.tsx";
import { requireUser } from "@/server/auth/session.ts";

import { signOutAction } from "../(auth)/sign-in/actions.ts";

export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const userName = user.name ?? user.email ?? "Signed in";
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between gap-2 border-b border-zinc-200 px-3 py-2 sm:gap-4 sm:px-4 sm:py-3 dark:border-zinc-800">
        <nav aria-label="Main" className="flex min-w-0 items-center gap-4">
          <Link href="/" className="text-lg font-semibold">
            Patchbay
          </Link>
          {navLinks.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              className="hidden text-sm text-zinc-600 hover:underline sm:inline dark:text-zinc-400"
            >
              {link.label}
            </Link>
          ))}
        </nav>
        <div className="flex min-w-0 items-center gap-2 text-sm sm:gap-3">
          <span className="hidden truncate text-zinc-600 sm:inline dark:text-zinc-400" data-testid="signed-in-as">
            {userName}
          </span>
          <ThemeToggle />
          <form action={signOutAction} className="hidden sm:block">
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </form>
          <PhoneMenu userName={userName} />
        </div>
      </header>
      {children}
    </div>
  );
}
