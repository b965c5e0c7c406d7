"use client";
// Settings → Connectors: the admin's connectors (read-only) and the user's own remote ones, with
// add, edit, remove (confirmed in the row) and "Test connection" listing the tools, and for
// connectors with per-user accounts (MCP OAuth) the user's account control; `notice` is the outcome
// of a sign-in that just came back through the OAuth callback.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import { SettingsSection } from "@/components/ui/settings-section.tsx";

import { ConnectorForm } from "./connector-form.tsx";
import { type Check, ConnectorRow } from "./connector-row.tsx";

export type OAuthNotice = { outcome: "connected" | "denied" | "expired" | "failed"; connectorId: string | null };

type Mode = { kind: "idle" } | { kind: "add" } | { kind: "edit"; id: string } | { kind: "confirm-remove"; id: string };

/** What the page is doing (adding, editing or removing one), its mutations, and the last error. */
function useConnectorActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
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
  const check = useMutation(
    trpc.connectors.check.mutationOptions({
      onError,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.connectors.oauthStatus.queryKey() }),
    }),
  );
  return { mode, setMode, error, checks, setChecks, create, update, remove, check };
}

export function ConnectorSettings({ notice }: { notice?: OAuthNotice | null }) {
  const trpc = useTRPC();
  const connectors = useQuery(trpc.connectors.list.queryOptions());
  const oauthStatuses = useQuery(trpc.connectors.oauthStatus.queryOptions());
  const statusOf = (id: string) => oauthStatuses.data?.find((entry) => entry.connectorId === id)?.status;
  const { mode, setMode, error, checks, setChecks, create, update, remove, check } = useConnectorActions();
  const noticeName = connectors.data?.find((connector) => connector.id === notice?.connectorId)?.name;

  return (
    <SettingsSection
      id="connectors-heading"
      title="Connectors"
      intro={<>MCP servers your chats can use. Switch them on per chat in the chat&apos;s Tools panel.</>}
      error={error}
    >
      {notice && <OAuthNoticeMessage notice={notice} connectorName={noticeName ?? "the connector"} />}
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
              <ConnectorRow
                connector={connector}
                isChecking={check.isPending}
                onCheck={() =>
                  check.mutate(
                    { id: connector.id },
                    { onSuccess: (r) => setChecks((c) => ({ ...c, [connector.id]: r })) },
                  )
                }
                onEdit={() => setMode({ kind: "edit", id: connector.id })}
                removal={{
                  isAsked: mode.kind === "confirm-remove" && mode.id === connector.id,
                  isPending: remove.isPending,
                  ask: () => setMode({ kind: "confirm-remove", id: connector.id }),
                  keep: () => setMode({ kind: "idle" }),
                  confirm: () => remove.mutate({ id: connector.id }),
                }}
                oauthStatus={statusOf(connector.id)}
                check={checks[connector.id]}
              />
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
    </SettingsSection>
  );
}

const noticeTexts: Record<OAuthNotice["outcome"], (name: string) => string> = {
  connected: (name) => `Your account is connected to ${name}. Its tools are ready in your chats.`,
  denied: (name) => `Access to ${name} was not allowed; nothing changed.`,
  expired: () => "That sign-in was not started from this account or has expired. Press Connect account again.",
  failed: (name) => `Connecting your account to ${name} failed. Try again.`,
};

function OAuthNoticeMessage({ notice, connectorName }: { notice: OAuthNotice; connectorName: string }) {
  const isSuccess = notice.outcome === "connected";
  return (
    <p
      role={isSuccess ? "status" : "alert"}
      className={`rounded-md p-3 text-sm ${isSuccess ? "bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-100" : "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100"}`}
    >
      {noticeTexts[notice.outcome](connectorName)}
    </p>
  );
}
