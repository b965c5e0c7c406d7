"use client";
// The two ways a subscription sign-in finishes in the browser, shared by Connect (Subscriptions) and
// Reconnect (an account's row): the code-paste step (the vendor's page opens in a new tab, the user
// pastes the code it shows) and the device step (a code to enter on the vendor's page while this
// polls at the vendor's pace). Only the code the user pasted goes up; only account ids come back.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { TextField } from "@/components/ui/text-field.tsx";

export type Flow = "anthropic" | "openai" | "google";
export type Pending =
  | { kind: "code-paste"; loginId: string; flow: Flow; authorizeUrl: string }
  | { kind: "device-code"; loginId: string; flow: Flow; userCode: string; verificationUrl: string; intervalMs: number };

const linkClass = "font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900 dark:text-blue-300";

type StepProps<P> = {
  pending: P;
  /** The flow's name ("Claude Pro / Max"), in the link to the vendor's page. */
  name: string;
  /** The step's accessible name; default "Connect <name>". */
  title?: string;
  onDone: () => void;
  onCancel: () => void;
  onError: (e: { message: string }) => void;
};

export function CodePasteStep({
  pending,
  name,
  title = `Connect ${name}`,
  onDone,
  onCancel,
  onError,
}: StepProps<Extract<Pending, { kind: "code-paste" }>>) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const complete = useMutation(trpc.providerLogins.complete.mutationOptions({ onSuccess: onDone, onError }));
  return (
    <form
      aria-label={title}
      className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
      onSubmit={(event) => {
        event.preventDefault();
        complete.mutate({ loginId: pending.loginId, code });
      }}
    >
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>
          <a href={pending.authorizeUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
            Open the {name} sign-in page
          </a>{" "}
          (a new tab) and approve access.
        </li>
        <li>Copy the code the page shows you and paste it below.</li>
      </ol>
      <TextField
        label="Code from the sign-in page"
        value={code}
        onValueChange={setCode}
        autoComplete="off"
        spellCheck={false}
        required
        className="font-mono"
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={complete.isPending || code.trim() === ""}>
          {complete.isPending ? "Connecting…" : "Connect"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function DeviceStep({
  pending,
  name,
  title = `Connect ${name}`,
  onDone,
  onCancel,
  onError,
}: StepProps<Extract<Pending, { kind: "device-code" }>>) {
  const trpc = useTRPC();
  const poll = useMutation(trpc.providerLogins.poll.mutationOptions());
  const [isWaiting, setIsWaiting] = useState(true);
  const { mutateAsync } = poll;
  // The latest callbacks, so a parent re-render never restarts (or drops the answer of) a poll.
  const callbacks = useRef({ onDone, onError });
  useEffect(() => {
    callbacks.current = { onDone, onError };
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isActive = true;
    const schedule = (ms: number) => {
      timer = setTimeout(() => {
        mutateAsync({ loginId: pending.loginId })
          .then((result) => {
            if (!isActive) return;
            if (result.status === "connected") callbacks.current.onDone();
            else schedule(result.intervalMs);
          })
          .catch((error: { message: string }) => {
            if (!isActive) return;
            setIsWaiting(false);
            callbacks.current.onError(error);
          });
      }, ms);
    };
    schedule(pending.intervalMs);
    return () => {
      isActive = false;
      clearTimeout(timer);
    };
  }, [pending.loginId, pending.intervalMs, mutateAsync]);

  return (
    <div
      aria-label={title}
      role="group"
      className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>
          <a href={pending.verificationUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
            Open the {name} device sign-in page
          </a>{" "}
          (a new tab) and sign in.
        </li>
        <li>Enter this code there:</li>
      </ol>
      <p className="font-mono text-2xl tracking-widest">
        <span className="sr-only">Your sign-in code: </span>
        <code data-testid="device-user-code">{pending.userCode}</code>
      </p>
      <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
        {isWaiting ? "Waiting for you to approve the sign-in…" : "The sign-in stopped."}
      </p>
      <div>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
