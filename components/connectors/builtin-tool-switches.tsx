"use client";
// Patchbay's built-in tools in the chat's Tools panel, each with its on/off checkbox (current time,
// followup questions, attempt_completion). A switch is a tool change like any other: a new revision,
// and Apply now while an answer streams.
import { useMutation } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { SessionToolDto } from "@/server/mcp/session-tools.ts";

import { ToolName } from "./tool-name.tsx";

type Props = {
  sessionId: string;
  tools: SessionToolDto[];
  isBusy: boolean;
  options: { onSuccess: () => void; onError: (error: { message: string }) => void };
};

export function BuiltinToolSwitches({ sessionId, tools, isBusy, options }: Props) {
  const trpc = useTRPC();
  const setBuiltin = useMutation(trpc.tools.setBuiltinTool.mutationOptions(options));
  if (tools.length === 0) return null;
  return (
    <section aria-label="Built-in tools" className="flex flex-col gap-1">
      <h3 className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Built in</h3>
      {tools.map((tool) => (
        <label key={tool.name} className="flex min-w-0 items-center gap-2" title={tool.description}>
          <input
            type="checkbox"
            aria-label={`Allow ${tool.name}`}
            checked={tool.enabled}
            disabled={isBusy || setBuiltin.isPending}
            onChange={(event) => setBuiltin.mutate({ sessionId, name: tool.name, enabled: event.target.checked })}
            className="size-4 shrink-0 accent-emerald-600"
          />
          <ToolName name={tool.name} className="min-w-0 font-mono text-xs" />
        </label>
      ))}
    </section>
  );
}
