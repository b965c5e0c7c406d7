"use client";
// One connector in the chat's Tools panel: its on/off switch with its health, its policy (allow /
// ask first / never), why it is left out (a name clash) or unavailable, the user's own account on it
// when it has or wants one, and its tools (connector-tool-row.tsx) while it is on: the first ones the
// server sent, with a count when the connector has more (the panel's search finds the others).
import type { ToolPolicy } from "@/server/core/tool-policy.ts";
import type { SessionConnectorDto } from "@/server/mcp/session-tools.ts";
import { Switch } from "@/components/ui/switch.tsx";

import { ConnectorToolRow, selectClass } from "./connector-tool-row.tsx";
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

/** What the user can change on a connector; each call is one mutation of the chat's tools. */
export type ConnectorActions = {
  setEnabled: (enabled: boolean) => void;
  setPolicy: (policy: ToolPolicy) => void;
  setToolEnabled: (toolName: string, enabled: boolean) => void;
  setToolPolicy: (toolName: string, policy: ToolPolicy | null) => void;
};

type Props = {
  connector: SessionConnectorDto;
  /** The user's own account on this connector, when it has one. */
  accountStatus: "connected" | "needs_authorization" | undefined;
  isBusy: boolean;
  actions: ConnectorActions;
  /** The panel's tool search, when the user typed one (the server filtered the tools by it). */
  query?: string;
};

function statusLabel(connector: SessionConnectorDto): string {
  if (!connector.enabled) return "off";
  return connector.conflict ? "left out" : (healthLabels[connector.health] ?? connector.health);
}

export function ConnectorItem({ connector, accountStatus, isBusy, actions, query }: Props) {
  const needsAuthorization = connector.health === "needs_authorization";
  return (
    <li className="flex flex-col gap-1">
      <label className="flex items-center justify-between gap-2">
        <span>
          <span className="font-medium">{connector.name}</span>{" "}
          <span className="text-xs text-zinc-500">{statusLabel(connector)}</span>
        </span>
        <Switch
          aria-label={`Use ${connector.name} in this chat`}
          checked={connector.enabled}
          disabled={isBusy}
          onCheckedChange={actions.setEnabled}
        />
      </label>
      <label className="flex items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        Tool calls
        <select
          aria-label={`Policy for ${connector.name}`}
          className={selectClass}
          value={connector.policy}
          disabled={isBusy}
          onChange={(event) => actions.setPolicy(event.target.value as ToolPolicy)}
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
      {(accountStatus !== undefined || needsAuthorization) && (
        <OAuthAccountControl
          connectorId={connector.id}
          connectorName={connector.name}
          status={needsAuthorization ? "needs_authorization" : accountStatus!}
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
            <ConnectorToolRow
              key={tool.name}
              connectorName={connector.name}
              tool={tool}
              isBusy={isBusy}
              onEnabledChange={(enabled) => actions.setToolEnabled(tool.name, enabled)}
              onPolicyChange={(policy) => actions.setToolPolicy(tool.name, policy)}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
