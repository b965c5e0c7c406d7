"use client";
// The audit of one turn, in a drawer: each model request with the tool revision it used, the exact
// tool names the model was shown and how it finished; the tool calls with their timings; tokens and
// duration. The line under the answer summarises it and opens the drawer.
import type { TurnDto } from "@/server/session/history.ts";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/sheet.tsx";

export type ToolTiming = { id: string; name: string; durationMs?: number; status: string };

function formatSeconds(turn: TurnDto): string | null {
  return turn.endedAt && turn.startedAt.getTime() > 0
    ? `${((turn.endedAt.getTime() - turn.startedAt.getTime()) / 1000).toFixed(1)} s`
    : null;
}

export function TurnDetails({ turn, toolTimings = [] }: { turn: TurnDto; toolTimings?: ToolTiming[] }) {
  const seconds = formatSeconds(turn);
  const tokens = turn.inputTokens !== null ? `${turn.inputTokens} in / ${turn.outputTokens ?? 0} out tokens` : null;
  const summary = [`${turn.provider} · ${turn.model}`, seconds, tokens].filter(Boolean).join(" · ");
  const revisions = [...new Set(turn.requests.map((request) => request.toolsRevision))];
  return (
    <div className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-500" data-testid="turn-details">
      <span>{summary}</span>
      <Sheet>
        <SheetTrigger className="rounded underline underline-offset-2 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-zinc-200">
          Details
        </SheetTrigger>
        <SheetContent
          side="right"
          title="Turn details"
          description={`${summary}${revisions.length > 0 ? ` · tools revision ${revisions.join(" → ")}` : ""}`}
          className="text-sm"
        >
          <section aria-labelledby={`requests-${turn.id}`} className="flex flex-col gap-2">
            <h3 id={`requests-${turn.id}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
              Model requests
            </h3>
            {turn.requests.length === 0 && <p className="text-xs text-zinc-500">No request yet.</p>}
            <ol className="flex flex-col gap-2">
              {turn.requests.map((request) => (
                <li
                  key={request.index}
                  className="rounded border border-zinc-200 p-2 text-xs dark:border-zinc-800"
                  data-testid="turn-request"
                >
                  <p className="font-medium">
                    Request {request.index + 1} · tools revision {request.toolsRevision}
                    {request.finishReason ? ` · finished: ${request.finishReason}` : ""}
                  </p>
                  <p className="mt-1 break-words font-mono" data-testid="request-tool-names">
                    {request.toolNames.length > 0 ? request.toolNames.join(", ") : "no tools"}
                  </p>
                </li>
              ))}
            </ol>
          </section>
          {toolTimings.length > 0 && (
            <section aria-labelledby={`tools-${turn.id}`} className="flex flex-col gap-2">
              <h3 id={`tools-${turn.id}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
                Tool calls
              </h3>
              <ul className="flex flex-col gap-1 text-xs">
                {toolTimings.map((tool) => (
                  <li key={tool.id} className="flex justify-between gap-2">
                    <span className="min-w-0 break-all font-mono">{tool.name}</span>
                    <span className="shrink-0 text-zinc-600 dark:text-zinc-400">
                      {tool.status}
                      {tool.durationMs !== undefined && !Number.isNaN(tool.durationMs)
                        ? ` · ${tool.durationMs} ms`
                        : ""}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </SheetContent>
      </Sheet>
    </div>
  );
}
