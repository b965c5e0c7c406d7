"use client";
// One provider account in Settings → Providers: what it is, who it is connected as, its models,
// status and last error, with rename, replace key, refresh models (endpoints) and remove.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { TextField } from "@/components/ui/text-field.tsx";
import type { AppRouter } from "@/server/api/root.ts";
import type { inferRouterOutputs } from "@trpc/server";

type Account = inferRouterOutputs<AppRouter>["accounts"]["list"][number];

const kindLabels: Record<Account["kind"], string> = {
  api_key: "API key",
  compatible: "OpenAI-compatible endpoint",
  subscription: "Subscription",
};

const providerLabels: Record<Account["provider"], string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  google: "Google Gemini",
  "openai-compatible": "OpenAI-compatible",
};

type Props = { account: Account; onChanged: () => Promise<unknown>; onError: (e: { message: string }) => void };

export function AccountRow({ account, onChanged, onError }: Props) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState(account.label);
  const [apiKey, setApiKey] = useState("");
  const onSuccess = () => {
    setEditing(false);
    setApiKey("");
    return onChanged();
  };
  const update = useMutation(trpc.accounts.update.mutationOptions({ onSuccess, onError }));
  const refreshModels = useMutation(trpc.accounts.refreshModels.mutationOptions({ onSuccess, onError }));
  const remove = useMutation(trpc.accounts.remove.mutationOptions({ onSuccess, onError }));

  function save(event: FormEvent) {
    event.preventDefault();
    update.mutate({
      id: account.id,
      ...(label.trim() !== account.label && { label: label.trim() }),
      ...(apiKey.trim() && { apiKey: apiKey.trim() }),
    });
  }

  return (
    <li aria-label={account.label} className="flex flex-col gap-2 p-3">
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-medium">
            {account.label}{" "}
            <span className="text-xs font-normal text-zinc-500">
              {providerLabels[account.provider]} · {kindLabels[account.kind]}
            </span>
          </p>
          {(account.identity ?? account.baseUrl) && (
            <p className="truncate text-xs text-zinc-500">
              {account.identity ? `Connected as ${account.identity}` : account.baseUrl}
              {account.plan && ` · ${account.plan} plan`}
            </p>
          )}
          <p className="text-xs text-zinc-500">
            {account.models.length} models: {account.models.slice(0, 6).join(", ")}
            {account.models.length > 6 && "…"}
          </p>
          {account.expiresAt && (
            <p className="text-xs text-zinc-500">Token valid until {new Date(account.expiresAt).toLocaleString()}</p>
          )}
          {account.status === "reconnect_needed" && (
            <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
              Reconnect needed{account.lastError ? `: ${account.lastError}` : ""}
              {account.kind === "subscription" && (
                <>
                  {" "}
                  <a href="#subscriptions-heading" className="underline">
                    Sign in again below
                  </a>{" "}
                  (the same account is revived, its chats keep working).
                </>
              )}
            </p>
          )}
        </div>
        <Button variant="ghost" onClick={() => setEditing((value) => !value)} aria-expanded={editing}>
          Edit
        </Button>
        {account.kind === "compatible" && (
          <Button
            variant="secondary"
            disabled={refreshModels.isPending}
            onClick={() => refreshModels.mutate({ id: account.id })}
          >
            Refresh models
          </Button>
        )}
        <Button
          variant="ghost"
          onClick={() => {
            if (window.confirm(`Remove ${account.label}? Its key or tokens are deleted from Patchbay.`))
              remove.mutate({ id: account.id });
          }}
        >
          {account.kind === "subscription" ? "Disconnect" : "Remove"}
        </Button>
      </div>
      {editing && (
        <form onSubmit={save} aria-label={`Edit ${account.label}`} className="flex flex-wrap items-end gap-2">
          <TextField label="Name" value={label} onValueChange={setLabel} required />
          {account.kind !== "subscription" && (
            <TextField
              label="New API key"
              type="password"
              autoComplete="off"
              value={apiKey}
              onValueChange={setApiKey}
              placeholder="unchanged"
            />
          )}
          <Button type="submit" disabled={update.isPending}>
            Save
          </Button>
        </form>
      )}
    </li>
  );
}
