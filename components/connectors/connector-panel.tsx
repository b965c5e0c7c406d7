"use client";
// The chat's live connector panel: connectors with on/off switches and a policy (allow / ask first /
// never), per-tool switches and policy overrides, health, and the registry revision. When a change
// alters the tools while an answer is streaming, it says the change applies on the next request and
// offers "Apply now" (restart the answer with the new tools) or "Keep for next request" (dismiss the
// notice; the answer's next model request gets the new tools anyway). A connector that wants the
// user's own account shows "authorization needed" and the account control (sign-in opens in a new
// tab). A connector left out for a name clash says so, and why, instead of silently missing its
// tools, and a failed update of the chat's tools is shown until one succeeds. A connector with many
// tools shows the first ones and a count; the search box (shown then) finds the others on the server.
// When the chat's tools are over its provider's limits, the panel says so before anything is sent.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

import { ConnectorItem } from "./connector-item.tsx";
import { PendingChangeNotice } from "./pending-change-notice.tsx";
import { ToolLimitAndSearch } from "./tool-limit-and-search.tsx";
import { useConnectorActions } from "./use-connector-actions.ts";

type Props = {
  sessionId: string;
  toolsRevision: number;
  streaming: { turnId: string; revision: number | null } | null;
  /** The answer whose pending change the user chose to keep for its next request. */
  keptChange: string | null;
  onKeepChange: (key: string | null) => void;
};

/**
 * The answer a change is pending for: the streaming one, when the tools moved past the revision of
 * its last request; null when nothing is pending.
 */
export function pendingChangeKey(streaming: Props["streaming"], revision: number): string | null {
  return streaming && streaming.revision !== null && streaming.revision < revision ? streaming.turnId : null;
}

/** The user's own account on a connector, when it has or wants one. */
function useAccountStatus() {
  const trpc = useTRPC();
  const oauthStatuses = useQuery(trpc.connectors.oauthStatus.queryOptions());
  return (id: string) => {
    const status = oauthStatuses.data?.find((entry) => entry.connectorId === id)?.status;
    return status === "connected" || status === "needs_authorization" ? status : undefined;
  };
}

/** The panel's data: the chat's tools, filtered on the server by the search the user typed. */
function useToolsState(sessionId: string) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const query = search.trim();
  const state = useQuery({
    ...trpc.tools.state.queryOptions(query ? { sessionId, query } : { sessionId }),
    placeholderData: keepPreviousData,
  });
  const isCapped = state.data?.connectors.some((connector) => connector.toolCount > connector.tools.length) ?? false;
  return { state, search, setSearch, query, isCapped };
}

export function ConnectorPanel({ sessionId, toolsRevision, streaming, keptChange, onKeepChange }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { state, search, setSearch, query, isCapped } = useToolsState(sessionId);
  const accountStatus = useAccountStatus();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tools.state.queryKey({ sessionId }) });
  const options = {
    // A change of the user's own asks again (Keep covered the earlier ones).
    onSuccess: () => (setError(null), onKeepChange(null), refresh()),
    // A switch whose tools could not be updated was undone on the server: reload to show it off again.
    onError: (e: { message: string }) => (setError(e.message), refresh()),
  };
  const { isBusy, actionsFor } = useConnectorActions(sessionId, options);
  const applyNow = useMutation(trpc.chat.applyNow.mutationOptions({ onError: options.onError }));

  useEffect(() => {
    if (state.data && toolsRevision > state.data.revision) void refresh();
  }, [toolsRevision]); // eslint-disable-line react-hooks/exhaustive-deps

  const revision = Math.max(toolsRevision, state.data?.revision ?? 0);
  // "Keep for next request" hides the notice for this answer (a revision the MCP servers bump by
  // themselves does not bring it back); the user's next change here, or another answer, does.
  const pendingKey = pendingChangeKey(streaming, revision);

  return (
    <aside
      aria-label="Connectors"
      className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Tools</h2>
        <span className="text-xs text-zinc-500" data-testid="tools-revision">
          revision {revision}
        </span>
      </div>
      {streaming && pendingKey && pendingKey !== keptChange && (
        <PendingChangeNotice
          isApplying={applyNow.isPending}
          onApplyNow={() => applyNow.mutate({ turnId: streaming.turnId })}
          onKeep={() => onKeepChange(pendingKey)}
        />
      )}
      {error && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {state.data?.rebuildError && (
        <p role="status" className="text-xs text-red-700 dark:text-red-300" data-testid="tools-rebuild-error">
          {state.data.rebuildError}
        </p>
      )}
      <ToolLimitAndSearch
        problem={state.data?.limit?.problem ?? null}
        isSearchShown={isCapped || query !== ""}
        search={search}
        onSearch={setSearch}
      />
      {state.data?.connectors.length === 0 && <p className="text-zinc-500">No connectors yet. Add one in settings.</p>}
      <ul className="flex flex-col gap-3">
        {state.data?.connectors.map((connector) => (
          <ConnectorItem
            key={connector.id}
            connector={connector}
            accountStatus={accountStatus(connector.id)}
            isBusy={isBusy}
            actions={actionsFor(connector)}
            query={query}
          />
        ))}
      </ul>
      {state.data && state.data.builtinTools.length > 0 && (
        <p className="text-xs text-zinc-500">Built in: {state.data.builtinTools.map((tool) => tool.name).join(", ")}</p>
      )}
    </aside>
  );
}
