// The personas offered as sub-agents, in the chat's Tools panel: each is the tool `persona.<slug>`
// in every chat of its owner. Their switch is the persona's own setting (Settings → Personas), so
// here they are listed, not switched.
import Link from "next/link";

import type { SessionToolsDto } from "@/server/mcp/session-tools.ts";

import { ToolName } from "./tool-name.tsx";

export function SubAgentToolList({ tools }: { tools: SessionToolsDto["subAgentTools"] }) {
  if (tools.length === 0) return null;
  return (
    <section aria-label="Sub-agents" className="flex flex-col gap-1" data-testid="sub-agent-tools">
      <h3 className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Sub-agents</h3>
      {tools.map((tool) => (
        <p key={tool.name} className="min-w-0" title={tool.description}>
          <ToolName name={tool.name} className="min-w-0 font-mono text-xs" />
        </p>
      ))}
      <Link href="/settings/personas" className="text-xs text-zinc-600 underline underline-offset-2 dark:text-zinc-400">
        Switch them in Settings → Personas
      </Link>
    </section>
  );
}
