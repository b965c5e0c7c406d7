"use client";
// Provider + account + model for the next turn: the server-wide providers and the user's own
// provider accounts (Settings → Providers), each as a group of its models.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

export type ModelChoice = {
  provider: "anthropic" | "openai" | "google" | "openai-compatible";
  model: string;
  accountId?: string | null;
};

type Props = { value: ModelChoice | null; onChange: (choice: ModelChoice) => void };

/** Server-wide models keep the plain `provider:model` value; account models are `account:<id>:model`. */
export function choiceValue(choice: ModelChoice): string {
  return choice.accountId ? `account:${choice.accountId}:${choice.model}` : `${choice.provider}:${choice.model}`;
}

export function ModelPicker({ value, onChange }: Props) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.chat.providers.queryOptions());
  if (sources.data?.length === 0) {
    return (
      <p className="text-sm text-amber-700 dark:text-amber-300">
        No model provider yet.{" "}
        <Link href="/settings/providers" className="underline">
          Add an API key or endpoint
        </Link>
      </p>
    );
  }
  const options = new Map(
    (sources.data ?? []).flatMap((source) =>
      source.models.map((model) => {
        const choice: ModelChoice = { provider: source.provider, model, accountId: source.accountId };
        return [choiceValue(choice), choice] as const;
      }),
    ),
  );
  const current = value ? choiceValue(value) : "";
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-zinc-600 dark:text-zinc-400">Model</span>
      <select
        value={current}
        onChange={(event) => {
          const choice = options.get(event.target.value);
          if (choice) onChange(choice);
        }}
        className="max-w-[16rem] rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
      >
        {!value && <option value="">Choose…</option>}
        {value && !options.has(current) && <option value={current}>{value.model} (unavailable)</option>}
        {sources.data?.map((source) => (
          <optgroup
            key={source.key}
            label={`${source.name}${source.detail ? ` · ${source.detail}` : ""}${source.needsReconnect ? " (reconnect needed)" : ""}`}
          >
            {source.models.map((model) => {
              const optionValue = choiceValue({ provider: source.provider, model, accountId: source.accountId });
              return (
                <option key={optionValue} value={optionValue}>
                  {model}
                </option>
              );
            })}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
