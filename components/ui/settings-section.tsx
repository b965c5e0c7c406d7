// The frame every settings page shares: its heading (labelling the section), the way back to the
// chats, a one-paragraph intro, and the error banner of its last failed action.
import Link from "next/link";
import type { ReactNode } from "react";

type Props = { id: string; title: string; intro: ReactNode; error: string | null; children: ReactNode };

export function SettingsSection({ id, title, intro, error, children }: Props) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h1 id={id} className="text-xl font-semibold">
          {title}
        </h1>
        <Link href="/" className="text-sm underline-offset-2 hover:underline">
          Back to chats
        </Link>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{intro}</p>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      {children}
    </section>
  );
}
