"use client";
// One connector's header in the chat's Tools panel: a disclosure showing its name, health and
// "12 of 15 tools on", its on/off switch, and, while expanded, its policy (allow / ask first /
// never), switches for all its tools at once, and the notes that explain a missing tool: a name
// clash, an unavailable server, the user's own account it wants, a capped or empty search. Its tools
// are rows of their own (connector-tool-row.tsx) in the panel's virtualised list.
import { memo } from "react";

import type { ToolPolicy } from "@/server/core/tool-policy.ts";
import type { PanelConnectorDto } from "@/server/api/routers/tool-bulk.ts";
import { Button } from "@/components/ui/button.tsx";
import { ChevronRightIcon } from "@/components/ui/icons.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Switch } from "@/components/ui/switch.tsx";

import { OAuthAccountControl } from "./oauth-account-control.tsx";

const connectorPolicies: { value: ToolPolicy; label: string }[] = [
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Ask first" },
  { value: "deny", label: "Never" },
];

const healthLabels: Record<string, string> = {
  ready: "connected",
  connecting: "connecting…",
  idle: "not connected yet",
  unhealthy: "unavailable",
  needs_authorization: "authorization needed",
  closed: "closed",
};

/**
 * What the user can change on a connector; each call is one mutation of the chat's tools. One object
 * for every connector, which keeps its identity (memoised rows of the panel's list keep theirs).
 */
export type ConnectorActions = {
  setEnabled: (connectorId: string, enabled: boolean) => void;
  setPolicy: (connectorId: string, policy: ToolPolicy) => void;
  setAllTools: (connectorId: string, enabled: boolean) => void;
  setToolEnabled: (connectorId: string, toolName: string, enabled: boolean) => void;
  setToolPolicy: (connectorId: string, toolName: string, policy: ToolPolicy | null) => void;
};

type Props = {
  connector: PanelConnectorDto;
  /** The user's own account on this connector, when it has one. */
  accountStatus: "connected" | "needs_authorization" | undefined;
  isBusy: boolean;
  isExpanded: boolean;
  onExpandedChange: (connectorId: string, isExpanded: boolean) => void;
  actions: ConnectorActions;
  /** The panel's tool search, when the user typed one. */
  query: string;
  /** How many of the connector's tools the panel lists now (after the search). */
  shownCount: number;
};

/** "connected · 12 of 15 tools on", "off", "left out". */
export function connectorSummary(connector: PanelConnectorDto): string {
  if (!connector.enabled) return "off";
  if (connector.conflict) return "left out";
  const health = healthLabels[connector.health] ?? connector.health;
  if (connector.toolCount === 0) return health;
  const total = connector.toolCount.toLocaleString("en-US");
  return `${health} · ${connector.enabledCount.toLocaleString("en-US")} of ${total} tools on`;
}

function ConnectorNotes({
  connector,
  accountStatus,
  query,
  shownCount,
}: Omit<Props, "isBusy" | "isExpanded" | "onExpandedChange" | "actions">) {
  const needsAuthorization = connector.health === "needs_authorization";
  return (
    <>
      {connector.enabled && connector.conflict && (
        <p className="text-xs text-amber-800 dark:text-amber-200" data-testid="connector-conflict">
          {connector.conflict}
        </p>
      )}
      {connector.enabled && connector.lastError && connector.health === "unhealthy" && (
        <p className="text-xs text-red-700 dark:text-red-300">{connector.lastError}</p>
      )}
      {(accountStatus !== undefined || needsAuthorization) && (
        <OAuthAccountControl
          connectorId={connector.id}
          connectorName={connector.name}
          status={needsAuthorization ? "needs_authorization" : accountStatus!}
          opensInNewTab
        />
      )}
      {connector.enabled && connector.matchCount > shownCount && (
        <p className="text-xs text-zinc-500" data-testid="connector-tool-count">
          Showing {shownCount} of {connector.matchCount.toLocaleString("en-US")} {query ? "matching tools" : "tools"};
          search to find the others.
        </p>
      )}
      {connector.enabled && query && shownCount === 0 && connector.toolCount > 0 && (
        <p className="text-xs text-zinc-500">No tool matches “{query}”.</p>
      )}
    </>
  );
}

function BulkControls({ connector, isBusy, actions }: Pick<Props, "connector" | "isBusy" | "actions">) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      <span className="flex items-center gap-2">
        Tool calls
        <Select
          aria-label={`Policy for ${connector.name}`}
          value={connector.policy}
          options={connectorPolicies}
          disabled={isBusy}
          onValueChange={(policy) => actions.setPolicy(connector.id, policy)}
        />
      </span>
      {connector.toolCount > 0 && (
        <span className="flex gap-1">
          <Button
            variant="ghost"
            className="px-2 py-0.5 text-xs"
            aria-label={`All on for ${connector.name}`}
            disabled={isBusy || connector.enabledCount === connector.toolCount}
            onClick={() => actions.setAllTools(connector.id, true)}
          >
            All on
          </Button>
          <Button
            variant="ghost"
            className="px-2 py-0.5 text-xs"
            aria-label={`All off for ${connector.name}`}
            disabled={isBusy || connector.enabledCount === 0}
            onClick={() => actions.setAllTools(connector.id, false)}
          >
            All off
          </Button>
        </span>
      )}
    </div>
  );
}

/** Memoised: a row of the panel's list re-renders only when its own props changed. */
export const ConnectorItem = memo(function ConnectorItem(props: Props) {
  const { connector, isBusy, isExpanded, onExpandedChange, actions } = props;
  return (
    <div className="flex flex-col gap-1 border-t border-zinc-200 pt-2 dark:border-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          aria-expanded={isExpanded}
          onClick={() => onExpandedChange(connector.id, !isExpanded)}
          className="flex min-w-0 flex-1 items-start gap-1 rounded text-left focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <ChevronRightIcon
            className={`mt-0.5 size-4 shrink-0 transition-transform ${isExpanded ? "rotate-90" : ""}`}
          />
          <span className="min-w-0">
            <span className="font-medium [overflow-wrap:anywhere]">{connector.name}</span>{" "}
            <span className="text-xs text-zinc-500" data-testid="connector-summary">
              {connectorSummary(connector)}
            </span>
          </span>
        </button>
        <Switch
          aria-label={`Use ${connector.name} in this chat`}
          checked={connector.enabled}
          disabled={isBusy}
          onCheckedChange={(enabled) => {
            if (enabled) onExpandedChange(connector.id, true);
            actions.setEnabled(connector.id, enabled);
          }}
        />
      </div>
      {isExpanded && <BulkControls connector={connector} isBusy={isBusy} actions={actions} />}
      {(isExpanded || connector.conflict || connector.health === "needs_authorization") && (
        <ConnectorNotes {...props} />
      )}
    </div>
  );
});
