import type { Metadata } from "next";

import { SessionList } from "@/components/sessions/session-list.tsx";

export const metadata: Metadata = { title: "Chats" };

export default function HomePage() {
  return (
    <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-6">
      <SessionList />
    </main>
  );
}
