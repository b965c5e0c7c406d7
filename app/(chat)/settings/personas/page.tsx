import type { Metadata } from "next";

import { PersonaSettings } from "@/components/personas/persona-settings.tsx";

export const metadata: Metadata = { title: "Personas" };

export default function PersonasPage() {
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
      <PersonaSettings />
    </main>
  );
}
