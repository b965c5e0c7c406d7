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
import { Button } from "@/components/ui/button.tsx";

import { OAuthAccountControl } from "./oauth-account-control.tsx";
import { Switch } from "@/components/ui/switch.tsx";
import type { ToolPolicy } from "@/server/core/tool-policy.ts";

const connectorPolicies: { value: ToolPolicy; label: string }[] = [
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Ask first" },
  { value: "deny", label: "Never" },
];
const toolPolicies: { value: ToolPolicy | ""; label: string }[] = [
  { value: "", label: "Connector default" },
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Ask" },
  { value: "deny", label: "Never" },
];

const selectClass = "rounded-md border border-zinc-300 bg-transparent px-1 py-0.5 text-xs dark:border-zinc-700";

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

const healthLabels: Record<string, string> = {
  ready: "connected",
  connecting: "connecting…",
  idle: "not connected yet",
  unhealthy: "unavailable",
  needs_authorization: "authorization needed",
  closed: "closed",
};

export function ConnectorPanel({ sessionId, toolsRevision, streaming, keptChange, onKeepChange }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const query = search.trim();
  const state = useQuery({
    ...trpc.tools.state.queryOptions(query ? { sessionId, query } : { sessionId }),
    placeholderData: keepPreviousData,
  });
  const isCapped = state.data?.connectors.some((connector) => connector.toolCount > connector.tools.length) ?? false;
  const oauthStatuses = useQuery(trpc.connectors.oauthStatus.queryOptions());
  const accountStatus = (id: string) => oauthStatuses.data?.find((entry) => entry.connectorId === id)?.status;
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tools.state.queryKey({ sessionId }) });
  const options = {
    // A change of the user's own asks again (Keep covered the earlier ones).
    onSuccess: () => (setError(null), onKeepChange(null), refresh()),
    // A switch whose tools could not be updated was undone on the server: reload to show it off again.
    onError: (e: { message: string }) => (setError(e.message), refresh()),
  };
  const setConnector = useMutation(trpc.tools.setConnector.mutationOptions(options));
  const setTool = useMutation(trpc.tools.setTool.mutationOptions(options));
  const setConnectorPolicy = useMutation(trpc.policy.setConnectorPolicy.mutationOptions(options));
  const setToolPolicy = useMutation(trpc.policy.setToolPolicy.mutationOptions(options));
  const applyNow = useMutation(trpc.chat.applyNow.mutationOptions({ onError: options.onError }));

  useEffect(() => {
    if (state.data && toolsRevision > state.data.revision) void refresh();
  }, [toolsRevision]); // eslint-disable-line react-hooks/exhaustive-deps

  const revision = Math.max(toolsRevision, state.data?.revision ?? 0);
  // "Keep for next request" hides the notice for this answer (a revision the MCP servers bump by
  // themselves does not bring it back); the user's next change here, or another answer, does.
  const pendingKey = pendingChangeKey(streaming, revision);
  const isBusy = setConnector.isPending || setTool.isPending || setConnectorPolicy.isPending || setToolPolicy.isPending;

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
        <div
          role="status"
          className="flex flex-col gap-2 rounded-md bg-amber-50 p-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>Pending: applies on the next request of this answer.</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              onClick={() => applyNow.mutate({ turnId: streaming.turnId })}
              disabled={applyNow.isPending}
            >
              Apply now
            </Button>
            <Button variant="ghost" onClick={() => onKeepChange(pendingKey)}>
              Keep for next request
            </Button>
          </div>
        </div>
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
      {state.data?.limit?.problem && (
        <p
          role="status"
          className="rounded-md bg-red-50 p-2 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="tools-limit"
        >
          {state.data.limit.problem}
        </p>
      )}
      {(isCapped || query) && (
        <input
          type="search"
          aria-label="Search tools"
          placeholder="Search tools"
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-xs dark:border-zinc-700"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      {state.data?.connectors.length === 0 && <p className="text-zinc-500">No connectors yet. Add one in settings.</p>}
      <ul className="flex flex-col gap-3">
        {state.data?.connectors.map((connector) => (
          <li key={connector.id} className="flex flex-col gap-1">
            <label className="flex items-center justify-between gap-2">
              <span>
                <span className="font-medium">{connector.name}</span>{" "}
                <span className="text-xs text-zinc-500">
                  {!connector.enabled
                    ? "off"
                    : connector.conflict
                      ? "left out"
                      : (healthLabels[connector.health] ?? connector.health)}
                </span>
              </span>
              <Switch
                aria-label={`Use ${connector.name} in this chat`}
                checked={connector.enabled}
                disabled={isBusy}
                onCheckedChange={(enabled) => setConnector.mutate({ sessionId, connectorId: connector.id, enabled })}
              />
            </label>
            <label className="flex items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
              Tool calls
              <select
                aria-label={`Policy for ${connector.name}`}
                className={selectClass}
                value={connector.policy}
                disabled={isBusy}
                onChange={(event) =>
                  setConnectorPolicy.mutate({
                    sessionId,
                    connectorId: connector.id,
                    policy: event.target.value as ToolPolicy,
                  })
                }
              >
                {connectorPolicies.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            {connector.enabled && connector.conflict && (
              <p className="text-xs text-amber-800 dark:text-amber-200" data-testid="connector-conflict">
                {connector.conflict}
              </p>
            )}
            {connector.enabled && connector.lastError && connector.health === "unhealthy" && (
              <p className="text-xs text-red-700 dark:text-red-300">{connector.lastError}</p>
            )}
            {(accountStatus(connector.id) === "connected" ||
              accountStatus(connector.id) === "needs_authorization" ||
              connector.health === "needs_authorization") && (
              <OAuthAccountControl
                connectorId={connector.id}
                connectorName={connector.name}
                status={
                  connector.health === "needs_authorization" ? "needs_authorization" : accountStatus(connector.id)!
                }
                opensInNewTab
              />
            )}
            {connector.enabled && connector.matchCount > connector.tools.length && (
              <p className="text-xs text-zinc-500" data-testid="connector-tool-count">
                Showing {connector.tools.length} of {connector.matchCount.toLocaleString("en-US")}{" "}
                {query ? "matching tools" : "tools"}; search to find the others.
              </p>
            )}
            {connector.enabled && query && connector.matchCount === 0 && connector.toolCount > 0 && (
              <p className="text-xs text-zinc-500">No tool matches “{query}”.</p>
            )}
            {connector.enabled && connector.tools.length > 0 && (
              <ul className="ml-3 flex flex-col gap-1 border-l border-zinc-200 pl-3 dark:border-zinc-800">
                {connector.tools.map((tool) => (
                  <li key={tool.name} className="flex items-center gap-2">
                    <label className="flex min-w-0 flex-1 items-center justify-between gap-2" title={tool.description}>
                      <span
                        className={`min-w-0 break-words font-mono text-xs ${tool.policy === "deny" ? "text-zinc-400 line-through" : ""}`}
                      >
                        {tool.name}
                      </span>
                      <input
                        type="checkbox"
                        aria-label={`Allow ${connector.name} ${tool.name}`}
                        checked={tool.enabled}
                        disabled={isBusy}
                        onChange={(event) =>
                          setTool.mutate({
                            sessionId,
                            connectorId: connector.id,
                            toolName: tool.name,
                            enabled: event.target.checked,
                          })
                        }
                      />
                    </label>
                    <select
                      aria-label={`Policy for ${connector.name} ${tool.name}`}
                      className={`${selectClass} w-32 shrink-0`}
                      value={tool.policyOverride ?? ""}
                      disabled={isBusy}
                      onChange={(event) =>
                        setToolPolicy.mutate({
                          sessionId,
                          connectorId: connector.id,
                          toolName: tool.name,
                          policy: (event.target.value || null) as ToolPolicy | null,
                        })
                      }
                    >
                      {toolPolicies.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </select>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {state.data && state.data.builtinTools.length > 0 && (
        <p className="text-xs text-zinc-500">Built in: {state.data.builtinTools.map((tool) => tool.name).join(", ")}</p>
      )}
    </aside>
  );
}
