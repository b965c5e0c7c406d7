"use client";
// Connect a personal subscription (Claude Pro / Max, ChatGPT, Gemini) in Settings → Providers: one
// button per flow the administrator switched on, each with the plain notice that it reuses the
// vendor's own CLI sign-in; then the flow's step (sign-in-steps.tsx). Tokens never reach the
// browser: only the code the user pasted goes up, and only account ids come back.
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import { CodePasteStep, DeviceStep, type Flow } from "./sign-in-steps.tsx";
import { useSubscriptionLogin } from "./use-subscription-login.ts";

export function SubscriptionConnect({ onConnected }: { onConnected: () => void }) {
  const trpc = useTRPC();
  const flows = useQuery(trpc.providerLogins.flows.queryOptions());
  const login = useSubscriptionLogin(onConnected);
  const { pending } = login;

  if (!flows.data || flows.data.length === 0) return null;
  const name = (flow: Flow) => flows.data.find((entry) => entry.flow === flow)?.name ?? flow;
  const step = { onDone: login.finish, onCancel: login.stop, onError: login.onError };

  return (
    <section aria-labelledby="subscriptions-heading" className="flex flex-col gap-3">
      <h2 id="subscriptions-heading" className="text-lg font-semibold">
        Subscriptions
      </h2>
      {login.error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {login.error}
        </p>
      )}
      {pending?.kind === "code-paste" && <CodePasteStep pending={pending} name={name(pending.flow)} {...step} />}
      {pending?.kind === "device-code" && <DeviceStep pending={pending} name={name(pending.flow)} {...step} />}
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
                <Button variant="secondary" disabled={login.isStarting} onClick={() => login.start(flow.flow)}>
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
