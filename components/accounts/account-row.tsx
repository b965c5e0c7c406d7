"use client";
// One provider account in Settings → Providers: what it is and its status (account-status.tsx), with
// rename and replace key (account-edit-form.tsx), refresh models (endpoints), remove, and for a
// subscription Reconnect: the same sign-in as Connect, started for this account, so that it revives
// this account (its chats keep working) rather than adding another.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import { AccountEditForm } from "./account-edit-form.tsx";
import { AccountStatus, type Account } from "./account-status.tsx";
import { CodePasteStep, DeviceStep, type Flow } from "./sign-in-steps.tsx";
import { useSubscriptionLogin } from "./use-subscription-login.ts";

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
  const onSuccess = () => {
    setEditing(false);
    return onChanged();
  };
  const refreshModels = useMutation(trpc.accounts.refreshModels.mutationOptions({ onSuccess, onError }));
  const remove = useMutation(trpc.accounts.remove.mutationOptions({ onSuccess, onError }));
  const flows = useQuery({ ...trpc.providerLogins.flows.queryOptions(), enabled: account.kind === "subscription" });
  const flow = flows.data?.find((entry) => entry.flow === account.provider);
  const login = useSubscriptionLogin(() => void onChanged());
  const { pending } = login;

  const step = {
    name: flow?.name ?? account.label,
    title: `Reconnect ${account.label}`,
    onDone: login.finish,
    onCancel: login.stop,
    onError: login.onError,
  };
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
          <AccountStatus account={account} />
        </div>
        {flow && !pending && (
          <Button
            variant={account.status === "reconnect_needed" ? "primary" : "secondary"}
            disabled={login.isStarting}
            onClick={() => login.start(account.provider as Flow, account.id)}
          >
            Reconnect
          </Button>
        )}
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
      {login.error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {login.error}
        </p>
      )}
      {pending?.kind === "code-paste" && <CodePasteStep pending={pending} {...step} />}
      {pending?.kind === "device-code" && <DeviceStep pending={pending} {...step} />}
      {editing && <AccountEditForm account={account} onSaved={onSuccess} onError={onError} />}
    </li>
  );
}
