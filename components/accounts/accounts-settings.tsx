"use client";
// Settings → Providers: the user's own ways to reach models — API keys, OpenAI-compatible endpoints
// and personal subscriptions — with who each is connected as, its models, token expiry, status and
// last error; rename, replace a key, refresh an endpoint's models, remove. A chat picks one of them
// (or the server's own keys) in its model picker.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { SettingsSection } from "@/components/ui/settings-section.tsx";

import { AccountRow } from "./account-row.tsx";
import { ApiKeyForm, EndpointForm } from "./account-forms.tsx";
import { SubscriptionConnect } from "./subscription-connect.tsx";

type Mode = "idle" | "api-key" | "endpoint";

export function AccountsSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.accounts.list.queryOptions());
  const sources = useQuery(trpc.chat.providers.queryOptions());
  const hasServerProviders = sources.data?.some((source) => source.kind === "server" && source.models.length > 0);
  const [mode, setMode] = useState<Mode>("idle");
  const [error, setError] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.accounts.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.chat.providers.queryKey() }),
    ]);
  const done = () => {
    setError(null);
    setMode("idle");
    return refresh();
  };
  const onError = (e: { message: string }) => setError(e.message);
  const addApiKey = useMutation(trpc.accounts.addApiKey.mutationOptions({ onSuccess: done, onError }));
  const addEndpoint = useMutation(trpc.accounts.addCompatible.mutationOptions({ onSuccess: done, onError }));

  return (
    <SettingsSection
      id="providers-heading"
      title="Providers"
      intro={
        <>
          Your own API keys, model servers and subscriptions. Keys and tokens are encrypted on the server and never
          shown again. Pick one per chat in the chat&apos;s model picker.
        </>
      }
      error={error}
    >
      <ul
        aria-label="Provider accounts"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {accounts.data?.map((account) => (
          <AccountRow key={account.id} account={account} onChanged={refresh} onError={onError} />
        ))}
        {accounts.data?.length === 0 && sources.data && (
          <li className="p-3 text-sm text-zinc-500" data-testid="no-accounts">
            {hasServerProviders
              ? "No accounts yet: chats use the server's own providers."
              : "No accounts yet, and this server has no model provider of its own: add an API key or an OpenAI-compatible endpoint below, or connect a subscription, to start chatting."}
          </li>
        )}
      </ul>
      {mode === "api-key" && (
        <div className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <ApiKeyForm
            isPending={addApiKey.isPending}
            onSubmit={(value) => addApiKey.mutate(value)}
            onCancel={() => setMode("idle")}
          />
        </div>
      )}
      {mode === "endpoint" && (
        <div className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <EndpointForm
            isPending={addEndpoint.isPending}
            onSubmit={(value) => addEndpoint.mutate(value)}
            onCancel={() => setMode("idle")}
          />
        </div>
      )}
      {mode === "idle" && (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setMode("api-key")}>Add API key</Button>
          <Button variant="secondary" onClick={() => setMode("endpoint")}>
            Add OpenAI-compatible endpoint
          </Button>
        </div>
      )}
      <SubscriptionConnect onConnected={() => void refresh()} />
    </SettingsSection>
  );
}
