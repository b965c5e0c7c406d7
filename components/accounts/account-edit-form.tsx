"use client";
// The edit form of one provider account (account-row.tsx): rename it and, for a key or an endpoint,
// replace its API key (left empty: unchanged). Only what changed is sent; a subscription has no key.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { TextField } from "@/components/ui/text-field.tsx";

import { type Account } from "./account-status.tsx";

type Props = { account: Account; onSaved: () => Promise<unknown>; onError: (e: { message: string }) => void };

export function AccountEditForm({ account, onSaved, onError }: Props) {
  const trpc = useTRPC();
  const [label, setLabel] = useState(account.label);
  const [apiKey, setApiKey] = useState("");
  const onSuccess = () => {
    setApiKey("");
    return onSaved();
  };
  const update = useMutation(trpc.accounts.update.mutationOptions({ onSuccess, onError }));

  function save(event: FormEvent) {
    event.preventDefault();
    update.mutate({
      id: account.id,
      ...(label.trim() !== account.label && { label: label.trim() }),
      ...(apiKey.trim() && { apiKey: apiKey.trim() }),
    });
  }

  return (
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
  );
}
