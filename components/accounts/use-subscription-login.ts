"use client";
// The state of one subscription sign-in in the browser: start it (for a flow, or to reconnect one
// account), the step in progress, its error, cancel, and finish. Used by Connect and by Reconnect.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

import type { Flow, Pending } from "./sign-in-steps.tsx";

export function useSubscriptionLogin(onConnected: () => void) {
  const trpc = useTRPC();
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onError = (e: { message: string }) => setError(e.message);
  const start = useMutation(
    trpc.providerLogins.start.mutationOptions({
      onSuccess: (login) => {
        setError(null);
        setPending(login);
      },
      onError,
    }),
  );
  const cancel = useMutation(trpc.providerLogins.cancel.mutationOptions());
  return {
    pending,
    error,
    onError,
    isStarting: start.isPending,
    /** Starts a sign-in for `flow`; with `accountId`, one that revives that account. */
    start: (flow: Flow, accountId?: string) => start.mutate({ flow, ...(accountId && { accountId }) }),
    finish: () => {
      setPending(null);
      setError(null);
      onConnected();
    },
    stop: () => {
      if (pending) cancel.mutate({ loginId: pending.loginId });
      setPending(null);
    },
  };
}
