"use client";
// Provider + model for the next turn, from the providers this server is configured for.
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

export type ModelChoice = { provider: "anthropic" | "openai" | "google" | "openai-compatible"; model: string };

type Props = { value: ModelChoice | null; onChange: (choice: ModelChoice) => void };

export function ModelPicker({ value, onChange }: Props) {
  const trpc = useTRPC();
  const providers = useQuery(trpc.chat.providers.queryOptions());
  if (providers.data?.length === 0) {
    return (
      <p className="text-sm text-amber-700 dark:text-amber-300">No model provider is configured on this server.</p>
    );
  }
  const current = value ? `${value.provider}:${value.model}` : "";
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-zinc-600 dark:text-zinc-400">Model</span>
      <select
        value={current}
        onChange={(event) => {
          const [provider, ...rest] = event.target.value.split(":");
          onChange({ provider: provider as ModelChoice["provider"], model: rest.join(":") });
        }}
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
      >
        {!value && <option value="">Choose…</option>}
        {providers.data?.map((provider) => (
          <optgroup key={provider.id} label={provider.name}>
            {provider.models.map((model) => (
              <option key={`${provider.id}:${model}`} value={`${provider.id}:${model}`}>
                {model}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
