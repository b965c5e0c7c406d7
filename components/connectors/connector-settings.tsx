"use client";
// Settings → Connectors: the admin's connectors (read-only) and the user's own remote ones, with
// add, edit, remove and "Test connection" listing the tools.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import { ConnectorForm } from "./connector-form.tsx";

type Check = { ok: true; tools: { name: string }[] } | { ok: false; error: string };

export function ConnectorSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connectors = useQuery(trpc.connectors.list.queryOptions());
  const [mode, setMode] = useState<{ kind: "idle" } | { kind: "add" } | { kind: "edit"; id: string }>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [checks, setChecks] = useState<Record<string, Check>>({});
  const done = () => {
    setError(null);
    setMode({ kind: "idle" });
    return queryClient.invalidateQueries({ queryKey: trpc.connectors.list.queryKey() });
  };
  const onError = (e: { message: string }) => setError(e.message);
  const create = useMutation(trpc.connectors.create.mutationOptions({ onSuccess: done, onError }));
  const update = useMutation(trpc.connectors.update.mutationOptions({ onSuccess: done, onError }));
  const remove = useMutation(trpc.connectors.delete.mutationOptions({ onSuccess: done, onError }));
  const check = useMutation(trpc.connectors.check.mutationOptions({ onError }));

  return (
    <section aria-labelledby="connectors-heading" className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h1 id="connectors-heading" className="text-xl font-semibold">
          Connectors
        </h1>
        <Link href="/" className="text-sm underline-offset-2 hover:underline">
          Back to chats
        </Link>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        MCP servers your chats can use. Switch them on per chat in the chat&apos;s Tools panel.
      </p>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      <ul
        aria-label="Connectors"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {connectors.data?.map((connector) => (
          <li key={connector.id} aria-label={connector.name} className="flex flex-col gap-2 p-3">
            {mode.kind === "edit" && mode.id === connector.id ? (
              <ConnectorForm
                initial={connector}
                submitLabel="Save"
                isPending={update.isPending}
                onCancel={() => setMode({ kind: "idle" })}
                onSubmit={(value) => update.mutate({ id: connector.id, ...value })}
              />
            ) : (
              <>
                <div className="flex flex-wrap items-center gap-2">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium">
                      {connector.name}{" "}
                      <span className="text-xs text-zinc-500">
                        {connector.source === "admin" ? "set up by the administrator" : connector.transport}
                      </span>
                    </p>
                    {connector.url && <p className="truncate text-xs text-zinc-500">{connector.url}</p>}
                  </div>
                  <Button
                    variant="secondary"
                    disabled={check.isPending}
                    onClick={() =>
                      check.mutate(
                        { id: connector.id },
                        { onSuccess: (r) => setChecks((c) => ({ ...c, [connector.id]: r })) },
                      )
                    }
                  >
                    Test connection
                  </Button>
                  {!connector.isReadOnly && (
                    <>
                      <Button variant="ghost" onClick={() => setMode({ kind: "edit", id: connector.id })}>
                        Edit
                      </Button>
                      <Button variant="ghost" onClick={() => remove.mutate({ id: connector.id })}>
                        Remove
                      </Button>
                    </>
                  )}
                </div>
                {checks[connector.id] && <CheckResult check={checks[connector.id]!} />}
              </>
            )}
          </li>
        ))}
        {connectors.data?.length === 0 && <li className="p-3 text-sm text-zinc-500">No connectors yet.</li>}
      </ul>
      {mode.kind === "add" ? (
        <div className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <ConnectorForm
            submitLabel="Add connector"
            isPending={create.isPending}
            onCancel={() => setMode({ kind: "idle" })}
            onSubmit={(value) =>
              create.mutate({
                ...value,
                headers: Object.fromEntries(Object.entries(value.headers).map(([k, v]) => [k, v ?? ""])),
              })
            }
          />
        </div>
      ) : (
        <div>
          <Button onClick={() => setMode({ kind: "add" })}>Add connector</Button>
        </div>
      )}
    </section>
  );
}

function CheckResult({ check }: { check: Check }) {
  if (!check.ok)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        Could not connect: {check.error}
      </p>
    );
  return (
    <p className="text-sm text-green-800 dark:text-green-300" data-testid="connector-check">
      Connected — {check.tools.length} tools: {check.tools.map((tool) => tool.name).join(", ")}
    </p>
  );
}
