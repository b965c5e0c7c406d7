"use client";
// One tool of a connector in the chat's Tools panel: its on/off checkbox, its name (wrapping at its
// separators; struck through when its policy is `deny`), its description on hover, and its policy
// override ("Default": the connector's policy; allow, ask, never) in an accessible select, mounted on
// its first use (select-on-first-use.tsx): a thousand rows would otherwise mount a thousand Radix
// Selects. Memoised, with callbacks that take the connector and tool, so a row that did not change
// is not rendered again when the list is (a search, a toggle elsewhere).
import { memo } from "react";

import type { ToolPolicy } from "@/server/core/tool-policy.ts";
import type { SessionToolDto } from "@/server/mcp/session-tools.ts";
import { SelectOnFirstUse } from "@/components/ui/select-on-first-use.tsx";

import { ToolName } from "./tool-name.tsx";

/** Radix Select forbids an empty value: "default" stands for "no override". */
type PolicyChoice = ToolPolicy | "default";

const toolPolicies: { value: PolicyChoice; label: string }[] = [
  { value: "default", label: "Default" },
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Ask" },
  { value: "deny", label: "Never" },
];

type Props = {
  connectorId: string;
  connectorName: string;
  tool: SessionToolDto;
  isBusy: boolean;
  onEnabledChange: (connectorId: string, toolName: string, enabled: boolean) => void;
  onPolicyChange: (connectorId: string, toolName: string, policy: ToolPolicy | null) => void;
};

export const ConnectorToolRow = memo(function ConnectorToolRow(props: Props) {
  const { connectorId, connectorName, tool, isBusy, onEnabledChange, onPolicyChange } = props;
  return (
    <div className="ml-3 flex items-center gap-2 border-l border-zinc-200 py-1 pl-3 dark:border-zinc-800">
      <label className="flex min-w-0 flex-1 items-center gap-2" title={tool.description || tool.name}>
        <input
          type="checkbox"
          aria-label={`Allow ${connectorName} ${tool.name}`}
          checked={tool.enabled}
          disabled={isBusy}
          onChange={(event) => onEnabledChange(connectorId, tool.name, event.target.checked)}
          className="size-4 shrink-0 accent-emerald-600"
        />
        <ToolName
          name={tool.name}
          className={`min-w-0 font-mono text-xs ${tool.policy === "deny" ? "text-zinc-500 line-through" : ""}`}
        />
      </label>
      <SelectOnFirstUse
        aria-label={`Policy for ${connectorName} ${tool.name}`}
        className="w-24 shrink-0 whitespace-nowrap"
        value={tool.policyOverride ?? "default"}
        options={toolPolicies}
        disabled={isBusy}
        onValueChange={(choice) => onPolicyChange(connectorId, tool.name, choice === "default" ? null : choice)}
      />
    </div>
  );
});
