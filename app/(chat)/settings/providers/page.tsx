import type { Metadata } from "next";

import { AccountsSettings } from "@/components/accounts/accounts-settings.tsx";

export const metadata: Metadata = { title: "Providers" };

export default function ProvidersPage() {
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
      <AccountsSettings />
    </main>
  );
}
