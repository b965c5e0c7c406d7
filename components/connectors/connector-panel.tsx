"use client";
// The chat's live Tools panel: a search over every connector's tools (names and descriptions), then
// each connector collapsed to one line ("12 of 15 tools on") with its on/off switch; expanded, its
// policy (allow / ask first / never), all-on / all-off, and its tools with their switches and policy
// overrides, in one virtualised list (tool-list.tsx). When a change alters the tools while an answer
// is streaming, it says the change applies on the next request and offers "Apply now" (restart the
// answer with the new tools) or "Keep for next request" (dismiss the notice; the answer's next model
// request gets the new tools anyway). A connector that wants the user's own account shows
// "authorization needed" and the account control; one left out for a name clash says why; a failed
// update of the chat's tools is shown until one succeeds; tools over the provider's limits are
// flagged before anything is sent.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useDeferredValue, useMemo, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { CloseIcon } from "@/components/ui/icons.tsx";

import { BuiltinToolSwitches } from "./builtin-tool-switches.tsx";
import { SubAgentToolList } from "./sub-agent-tool-list.tsx";
import { PendingChangeNotice } from "./pending-change-notice.tsx";
import { ToolLimitAndSearch } from "./tool-limit-and-search.tsx";
import { buildRows, ToolList } from "./tool-list.tsx";
import { useConnectorActions } from "./use-connector-actions.ts";
import { useRefreshTools, useToolSearch } from "./use-tools-state.ts";

export type StreamingTools = { turnId: string; revision: number | null };

export type ConnectorPanelProps = {
  sessionId: string;
  toolsRevision: number;
  streaming: StreamingTools | null;
  /** The answer whose pending change the user chose to keep for its next request. */
  keptChange: string | null;
  onKeepChange: (key: string | null) => void;
  /** Closes the docked panel (a sheet has its own close button). */
  onClose?: () => void;
};

/**
 * The answer a change is pending for: the streaming one, when the tools moved past the revision of
 * its last request; null when nothing is pending.
 */
export function pendingChangeKey(streaming: StreamingTools | null, revision: number): string | null {
  return streaming && streaming.revision !== null && streaming.revision < revision ? streaming.turnId : null;
}

/** The user's own account on a connector, when it has or wants one. */
function useAccountStatus() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.connectors.oauthStatus.queryOptions());
  return useCallback(
    (id: string) => {
      const status = data?.find((entry) => entry.connectorId === id)?.status;
      return status === "connected" || status === "needs_authorization" ? status : undefined;
    },
    [data],
  );
}

function useExpanded() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const onExpandedChange = useCallback(
    (id: string, isExpanded: boolean) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (isExpanded) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  return { expanded, onExpandedChange };
}

export function ConnectorPanel(props: ConnectorPanelProps) {
  const { sessionId, toolsRevision, streaming, keptChange, onKeepChange, onClose } = props;
  const trpc = useTRPC();
  const { state, search, setSearch } = useToolSearch(sessionId);
  const refresh = useRefreshTools(sessionId);
  const accountStatus = useAccountStatus();
  const { expanded, onExpandedChange } = useExpanded();
  const [error, setError] = useState<string | null>(null);
  const options = {
    // A change of the user's own asks again (Keep covered the earlier ones).
    onSuccess: () => (setError(null), onKeepChange(null), refresh()),
    // A switch whose tools could not be updated was undone on the server: reload to show it off again.
    onError: (e: { message: string }) => (setError(e.message), refresh()),
  };
  const { isBusy, actions } = useConnectorActions(sessionId, options);
  const applyNow = useMutation(trpc.chat.applyNow.mutationOptions({ onError: options.onError }));

  const revision = Math.max(toolsRevision, state.data?.revision ?? 0);
  // "Keep for next request" hides the notice for this answer (a revision the MCP servers bump by
  // themselves does not bring it back); the user's next change here, or another answer, does.
  const pendingKey = pendingChangeKey(streaming, revision);
  // The search box shows each keystroke at once; the list follows as soon as the browser is free.
  const listSearch = useDeferredValue(search);
  const connectors = state.data?.connectors;
  const rows = useMemo(() => buildRows(connectors ?? [], listSearch, expanded), [connectors, listSearch, expanded]);

  return (
    <aside aria-label="Connectors" className="flex min-h-0 flex-1 flex-col gap-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">Tools</h2>
        <span className="flex-1 text-right text-xs text-zinc-500">revision {revision}</span>
        {onClose && (
          <button
            type="button"
            aria-label="Close tools"
            onClick={onClose}
            className="rounded-md p-1 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800"
          >
            <CloseIcon />
          </button>
        )}
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
      <ToolLimitAndSearch problem={state.data?.limit?.problem ?? null} search={search} onSearch={setSearch} />
      {state.data?.connectors.length === 0 && <p className="text-zinc-500">No connectors yet. Add one in settings.</p>}
      <ToolList
        rows={rows}
        expanded={expanded}
        onExpandedChange={onExpandedChange}
        isBusy={isBusy}
        query={listSearch.trim()}
        accountStatus={accountStatus}
        actions={actions}
      />
      <BuiltinToolSwitches
        sessionId={sessionId}
        tools={state.data?.builtinTools ?? []}
        isBusy={isBusy}
        options={options}
      />
      <SubAgentToolList tools={state.data?.subAgentTools ?? []} />
    </aside>
  );
}
