"use client";
// The chat's persona (or none), in the composer's row as a Radix select: its system prompt applies
// from the next turn, its tool allowlist at once to the chat's tools (the server rebuilds the
// registry, and the Tools panel follows).
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { memo, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Select } from "@/components/ui/select.tsx";

type Props = { sessionId: string; value: string | null };

/** Radix forbids an empty item value: "no persona" is this sentinel in the select. */
const NO_PERSONA = "none";

function PersonaPickerContent({ sessionId, value }: Props) {
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
  const options = [
    { value: NO_PERSONA, label: "No persona" },
    ...personas.data.map((persona) => ({ value: persona.id, label: persona.name })),
  ];
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <Select
        aria-label="Persona"
        value={current ?? NO_PERSONA}
        options={options}
        disabled={choose.isPending}
        onValueChange={(next) => {
          const personaId = next === NO_PERSONA ? null : next;
          choose.mutate({ sessionId, personaId }, { onSuccess: () => setChosen(personaId) });
        }}
        className="max-w-[12rem] px-2 py-1 text-sm [&>span]:truncate"
      />
      {choose.error && (
        <span role="alert" className="text-red-700 dark:text-red-300">
          {choose.error.message}
        </span>
      )}
    </div>
  );
}

/** Skips the chat's streaming re-renders (its props are plain values). */
export const PersonaPicker = memo(PersonaPickerContent);
