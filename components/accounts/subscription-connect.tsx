"use client";
// Connect a personal subscription (Claude Pro / Max, ChatGPT, Gemini) in Settings → Providers: one
// button per flow the administrator switched on, each with the plain notice that it reuses the
// vendor's own CLI sign-in; then either the code-paste step (the vendor's page opens in a new tab,
// the user pastes the code it shows) or the device step (a code to enter on the vendor's page while
// this polls at the vendor's pace). Tokens never reach the browser: only the code the user pasted
// goes up, and only account ids come back.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

type Flow = "anthropic" | "openai" | "google";
type Pending =
  | { kind: "code-paste"; loginId: string; flow: Flow; authorizeUrl: string }
  | { kind: "device-code"; loginId: string; flow: Flow; userCode: string; verificationUrl: string; intervalMs: number };

const linkClass = "font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900 dark:text-blue-300";

export function SubscriptionConnect({ onConnected }: { onConnected: () => void }) {
  const trpc = useTRPC();
  const flows = useQuery(trpc.providerLogins.flows.queryOptions());
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
  const finish = () => {
    setPending(null);
    setError(null);
    onConnected();
  };
  const stop = () => {
    if (pending) cancel.mutate({ loginId: pending.loginId });
    setPending(null);
  };

  if (!flows.data || flows.data.length === 0) return null;
  const name = (flow: Flow) => flows.data.find((entry) => entry.flow === flow)?.name ?? flow;

  return (
    <section aria-labelledby="subscriptions-heading" className="flex flex-col gap-3">
      <h2 id="subscriptions-heading" className="text-lg font-semibold">
        Subscriptions
      </h2>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      {pending?.kind === "code-paste" && (
        <CodePasteStep pending={pending} name={name(pending.flow)} onDone={finish} onCancel={stop} onError={onError} />
      )}
      {pending?.kind === "device-code" && (
        <DeviceStep pending={pending} name={name(pending.flow)} onDone={finish} onCancel={stop} onError={onError} />
      )}
      {!pending && (
        <ul aria-label="Subscription sign-ins" className="flex flex-col gap-3">
          {flows.data.map((flow) => (
            <li
              key={flow.flow}
              aria-label={flow.name}
              className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
            >
              <p className="text-sm text-amber-900 dark:text-amber-200">{flow.consent}</p>
              <div>
                <Button
                  variant="secondary"
                  disabled={start.isPending}
                  onClick={() => start.mutate({ flow: flow.flow })}
                >
                  Connect {flow.name}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type StepProps<P> = {
  pending: P;
  name: string;
  onDone: () => void;
  onCancel: () => void;
  onError: (e: { message: string }) => void;
};

function CodePasteStep({
  pending,
  name,
  onDone,
  onCancel,
  onError,
}: StepProps<Extract<Pending, { kind: "code-paste" }>>) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const inputId = useId();
  const complete = useMutation(trpc.providerLogins.complete.mutationOptions({ onSuccess: onDone, onError }));
  return (
    <form
      aria-label={`Connect ${name}`}
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
      <label htmlFor={inputId} className="text-sm font-medium">
        Code from the sign-in page
      </label>
      <input
        id={inputId}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        required
        className="rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
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

function DeviceStep({
  pending,
  name,
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
      aria-label={`Connect ${name}`}
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
