"use client";
// The chat's persona (or none): its system prompt applies from the next turn, its tool allowlist at
// once to the chat's tools (the server rebuilds the registry, and the Tools panel follows).
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

type Props = { sessionId: string; value: string | null };

export function PersonaPicker({ sessionId, value }: Props) {
  const trpc = useTRPC();
  const personas = useQuery(trpc.policy.personas.list.queryOptions());
  const [chosen, setChosen] = useState<string | null>(value);
  const choose = useMutation(trpc.policy.setSessionPersona.mutationOptions());
  if (!personas.data) return null;
  if (personas.data.length === 0 && chosen === null)
    return (
      <Link href="/settings/personas" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
        Add a persona
      </Link>
    );
  const current = personas.data.some((persona) => persona.id === chosen) ? chosen : null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <label className="flex items-center gap-2">
        <span className="text-zinc-600 dark:text-zinc-400">Persona</span>
        <select
          value={current ?? ""}
          disabled={choose.isPending}
          onChange={(event) => {
            const personaId = event.target.value || null;
            choose.mutate({ sessionId, personaId }, { onSuccess: () => setChosen(personaId) });
          }}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
        >
          <option value="">No persona</option>
          {personas.data.map((persona) => (
            <option key={persona.id} value={persona.id}>
              {persona.name}
            </option>
          ))}
        </select>
      </label>
      {choose.error && (
        <span role="alert" className="text-red-700 dark:text-red-300">
          {choose.error.message}
        </span>
      )}
    </div>
  );
}
