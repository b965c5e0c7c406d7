"use client";
// Settings → Personas: the user's presets of a system prompt and a tool allowlist, with add, edit
// and delete. A chat picks one in its header; deleting a persona leaves its chats without one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { SettingsSection } from "@/components/ui/settings-section.tsx";

import { PersonaForm } from "./persona-form.tsx";
import { SubAgentSummary } from "./sub-agent-fields.tsx";

type MutationError = {
  message: string;
  data?: { zodIssues?: { path: PropertyKey[]; message: string }[] | null } | null;
};

const fieldLabels: Record<string, string> = {
  name: "Name",
  systemPrompt: "System prompt",
  toolAllowlist: "Tool allowlist",
  subAgent: "Sub-agent",
};

/** Bad input reads as the form's own words ("Tool allowlist, entry 2: …"), not as a raw issue list. */
function describeError(error: MutationError): string {
  const issues = error.data?.zodIssues;
  if (!issues?.length) return error.message;
  return issues
    .map(({ path: [field, index], message }) => {
      const label = fieldLabels[String(field)] ?? String(field ?? "Persona");
      return `${label}${typeof index === "number" ? `, entry ${index + 1}` : ""}: ${message}`;
    })
    .join("; ");
}

const INTRO = (
  <>
    A persona gives a chat its system prompt and limits which tools the model may see. Choose one in a chat&apos;s
    header, or make it available as a sub-agent that every chat can consult as a tool.
  </>
);

export function PersonaSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const personas = useQuery(trpc.policy.personas.list.queryOptions());
  const [mode, setMode] = useState<{ kind: "idle" } | { kind: "add" } | { kind: "edit"; id: string }>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    setError(null);
    setMode({ kind: "idle" });
    return queryClient.invalidateQueries({ queryKey: trpc.policy.personas.list.queryKey() });
  };
  const onError = (e: MutationError) => setError(describeError(e));
  const create = useMutation(trpc.policy.personas.create.mutationOptions({ onSuccess: done, onError }));
  const update = useMutation(trpc.policy.personas.update.mutationOptions({ onSuccess: done, onError }));
  const remove = useMutation(trpc.policy.personas.delete.mutationOptions({ onSuccess: done, onError }));

  return (
    <SettingsSection id="personas-heading" title="Personas" intro={INTRO} error={error}>
      <ul
        aria-label="Personas"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {personas.data?.map((persona) => (
          <li key={persona.id} aria-label={persona.name} className="flex flex-col gap-2 p-3">
            {mode.kind === "edit" && mode.id === persona.id ? (
              <PersonaForm
                initial={persona}
                submitLabel="Save"
                isPending={update.isPending}
                onCancel={() => setMode({ kind: "idle" })}
                onSubmit={(value) => update.mutate({ id: persona.id, ...value })}
              />
            ) : (
              <div className="flex flex-wrap items-start gap-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{persona.name}</p>
                  <p className="line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">{persona.systemPrompt}</p>
                  <p className="truncate font-mono text-xs text-zinc-500">
                    Tools: {persona.toolAllowlist.length > 0 ? persona.toolAllowlist.join(", ") : "none"}
                  </p>
                  {persona.subAgent && <SubAgentSummary value={persona.subAgent} />}
                </div>
                <Button variant="ghost" onClick={() => setMode({ kind: "edit", id: persona.id })}>
                  Edit
                </Button>
                <Button variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate({ id: persona.id })}>
                  Delete
                </Button>
              </div>
            )}
          </li>
        ))}
        {personas.data?.length === 0 && <li className="p-3 text-sm text-zinc-500">No personas yet.</li>}
      </ul>
      {mode.kind === "add" ? (
        <div className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <PersonaForm
            submitLabel="Add persona"
            isPending={create.isPending}
            onCancel={() => setMode({ kind: "idle" })}
            onSubmit={(value) => create.mutate(value)}
          />
        </div>
      ) : (
        <div>
          <Button onClick={() => setMode({ kind: "add" })}>Add persona</Button>
        </div>
      )}
    </SettingsSection>
  );
}
