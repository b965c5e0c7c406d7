"use client";
// The audit of one turn, in a drawer: a table of its model requests (the tool revision each used,
// how it finished, its tokens and time, and under it the exact tool names the model was shown) and
// a table of its tool calls (status, duration), and the requests of each sub-agent it consulted
// (persona, model, and per request the same audit: revision and exact tool names). The line under the answer summarises the turn (provider, model, duration, tokens)
// and opens the drawer.
import type { TurnDto } from "@/server/session/history.ts";
import type { SubAgentRunDto } from "@/server/session/sub-agent-store.ts";
import { RequestOverlays } from "@/components/overlays/request-overlays.tsx";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/sheet.tsx";

export type ToolTiming = { id: string; name: string; durationMs?: number; status: string };

const headCell = "px-2 py-1 text-left font-medium text-zinc-600 dark:text-zinc-400";
const cell = "px-2 py-1 align-top";

function formatSeconds(turn: TurnDto): string | null {
  return turn.endedAt && turn.startedAt.getTime() > 0
    ? `${((turn.endedAt.getTime() - turn.startedAt.getTime()) / 1000).toFixed(1)} s`
    : null;
}

function formatDuration(durationMs: number | null | undefined): string {
  return typeof durationMs === "number" && !Number.isNaN(durationMs) ? `${durationMs} ms` : "—";
}

function formatTokens(request: TurnDto["requests"][number]): string {
  if (typeof request.inputTokens !== "number" && typeof request.outputTokens !== "number") return "—";
  return `${request.inputTokens ?? 0} in / ${request.outputTokens ?? 0} out`;
}

type RequestsProps = { requests: TurnDto["requests"]; testId?: string; rowTestId?: string };

function RequestsTable({ requests, testId = "turn-requests", rowTestId = "turn-request" }: RequestsProps) {
  if (requests.length === 0) return <p className="text-xs text-zinc-500">No request yet.</p>;
  return (
    <table className="w-full border-collapse text-xs" data-testid={testId}>
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th scope="col" className={headCell}>
            Request
          </th>
          <th scope="col" className={headCell}>
            Tools revision
          </th>
          <th scope="col" className={headCell}>
            Finished
          </th>
          <th scope="col" className={`${headCell} text-right`}>
            Tokens
          </th>
          <th scope="col" className={`${headCell} text-right`}>
            Time
          </th>
        </tr>
      </thead>
      {requests.map((request) => (
        <tbody
          key={request.index}
          className="border-b border-zinc-200 last:border-0 dark:border-zinc-800"
          data-testid={rowTestId}
          data-revision={request.toolsRevision}
        >
          <tr>
            <th scope="row" className={`${cell} text-left font-medium`}>
              {request.index + 1}
            </th>
            <td className={cell} data-testid="request-revision">
              {request.toolsRevision}
            </td>
            <td className={cell}>{request.finishReason ?? "—"}</td>
            <td className={`${cell} whitespace-nowrap text-right tabular-nums`} data-testid="request-tokens">
              {formatTokens(request)}
            </td>
            <td className={`${cell} whitespace-nowrap text-right tabular-nums`} data-testid="request-duration">
              {formatDuration(request.durationMs)}
            </td>
          </tr>
          <tr>
            <td colSpan={5} className={`${cell} pb-2`}>
              <span className="sr-only">Tools shown to the model: </span>
              <span className="break-words font-mono text-zinc-700 dark:text-zinc-300" data-testid="request-tool-names">
                {request.toolNames.length > 0 ? request.toolNames.join(", ") : "no tools"}
              </span>
            </td>
          </tr>
          {request.overlays && (
            <tr>
              <td colSpan={5} className={`${cell} pb-2`}>
                <RequestOverlays request={request} />
              </td>
            </tr>
          )}
        </tbody>
      ))}
    </table>
  );
}

/** The nested requests of each sub-agent the turn consulted, under the persona and model they ran on. */
function SubAgentRequests({ runs }: { runs: SubAgentRunDto[] }) {
  return runs.map((run) => (
    <section
      key={run.id}
      aria-labelledby={`sub-agent-${run.id}`}
      className="flex flex-col gap-2"
      data-testid="sub-agent-details"
    >
      <h3 id={`sub-agent-${run.id}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Sub-agent {run.personaName} · {run.provider} · {run.model} · {run.status} · {run.inputTokens} in /{" "}
        {run.outputTokens} out tokens
      </h3>
      <RequestsTable requests={run.requests} testId="sub-agent-requests" rowTestId="sub-agent-request" />
    </section>
  ));
}

function ToolCallsTable({ toolTimings }: { toolTimings: ToolTiming[] }) {
  return (
    <table className="w-full border-collapse text-xs" data-testid="turn-tool-calls">
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th scope="col" className={headCell}>
            Tool
          </th>
          <th scope="col" className={headCell}>
            Status
          </th>
          <th scope="col" className={`${headCell} text-right`}>
            Duration
          </th>
        </tr>
      </thead>
      <tbody>
        {toolTimings.map((tool) => (
          <tr
            key={tool.id}
            className="border-b border-zinc-200 last:border-0 dark:border-zinc-800"
            data-testid="turn-tool-call"
          >
            <th scope="row" className={`${cell} break-all text-left font-mono font-normal`}>
              {tool.name}
            </th>
            <td className={cell}>{tool.status}</td>
            <td className={`${cell} whitespace-nowrap text-right tabular-nums`} data-testid="tool-duration">
              {formatDuration(tool.durationMs)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type DetailsProps = { turn: TurnDto; toolTimings?: ToolTiming[]; subAgentRuns?: SubAgentRunDto[] };

export function TurnDetails({ turn, toolTimings = [], subAgentRuns = [] }: DetailsProps) {
  const seconds = formatSeconds(turn);
  const tokens = turn.inputTokens !== null ? `${turn.inputTokens} in / ${turn.outputTokens ?? 0} out tokens` : null;
  const summary = [`${turn.provider} · ${turn.model}`, seconds, tokens].filter(Boolean).join(" · ");
  const revisions = [...new Set(turn.requests.map((request) => request.toolsRevision))];
  return (
    <div className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-500" data-testid="turn-details">
      <span data-testid="turn-summary">{summary}</span>
      <Sheet>
        <SheetTrigger className="rounded underline underline-offset-2 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-zinc-200">
          Details
        </SheetTrigger>
        <SheetContent
          side="right"
          width="wide"
          title="Turn details"
          description={`${summary}${revisions.length > 0 ? ` · tools revision ${revisions.join(" → ")}` : ""}`}
          className="text-sm"
        >
          <section aria-labelledby={`requests-${turn.id}`} className="flex flex-col gap-2">
            <h3 id={`requests-${turn.id}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
              Model requests
            </h3>
            <RequestsTable requests={turn.requests} />
          </section>
          <SubAgentRequests runs={subAgentRuns} />
          {toolTimings.length > 0 && (
            <section aria-labelledby={`tools-${turn.id}`} className="flex flex-col gap-2">
              <h3 id={`tools-${turn.id}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
                Tool calls
              </h3>
              <ToolCallsTable toolTimings={toolTimings} />
            </section>
          )}
        </SheetContent>
      </Sheet>
    </div>
  );
}
