"use client";
// One tool of a connector in the chat's Tools panel: its on/off checkbox (the name struck through
// when its policy is `deny`) and its policy override (the connector's default, allow, ask, never).
import type { ToolPolicy } from "@/server/core/tool-policy.ts";
import type { SessionToolDto } from "@/server/mcp/session-tools.ts";

export const selectClass = "rounded-md border border-zinc-300 bg-transparent px-1 py-0.5 text-xs dark:border-zinc-700";

const toolPolicies: { value: ToolPolicy | ""; label: string }[] = [
  { value: "", label: "Connector default" },
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Ask" },
  { value: "deny", label: "Never" },
];

type Props = {
  connectorName: string;
  tool: SessionToolDto;
  isBusy: boolean;
  onEnabledChange: (enabled: boolean) => void;
  onPolicyChange: (policy: ToolPolicy | null) => void;
};

export function ConnectorToolRow({ connectorName, tool, isBusy, onEnabledChange, onPolicyChange }: Props) {
  return (
    <li className="flex items-center gap-2">
      <label className="flex min-w-0 flex-1 items-center justify-between gap-2" title={tool.description}>
        <span
          className={`min-w-0 break-words font-mono text-xs ${tool.policy === "deny" ? "text-zinc-400 line-through" : ""}`}
        >
          {tool.name}
        </span>
        <input
          type="checkbox"
          aria-label={`Allow ${connectorName} ${tool.name}`}
          checked={tool.enabled}
          disabled={isBusy}
          onChange={(event) => onEnabledChange(event.target.checked)}
        />
      </label>
      <select
        aria-label={`Policy for ${connectorName} ${tool.name}`}
        className={`${selectClass} w-32 shrink-0`}
        value={tool.policyOverride ?? ""}
        disabled={isBusy}
        onChange={(event) => onPolicyChange((event.target.value || null) as ToolPolicy | null)}
      >
        {toolPolicies.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </li>
  );
}
