// The audit of one turn: each model request with the tool revision it used, the exact tool names
// the model was shown and how it finished, plus tokens and timing. Collapsed by default.
import type { TurnDto } from "@/server/session/history.ts";

export function TurnDetails({ turn }: { turn: TurnDto }) {
  const seconds =
    turn.endedAt && turn.startedAt.getTime() > 0
      ? ((turn.endedAt.getTime() - turn.startedAt.getTime()) / 1000).toFixed(1)
      : null;
  return (
    <details className="text-xs text-zinc-500" data-testid="turn-details">
      <summary className="cursor-pointer">
        {turn.provider} · {turn.model}
        {seconds ? ` · ${seconds} s` : ""}
        {turn.inputTokens !== null ? ` · ${turn.inputTokens} in / ${turn.outputTokens ?? 0} out tokens` : ""}
      </summary>
      <ol className="mt-2 flex flex-col gap-2">
        {turn.requests.map((request) => (
          <li key={request.index} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
            <p>
              Request {request.index + 1} · tools revision {request.toolsRevision}
              {request.finishReason ? ` · finished: ${request.finishReason}` : ""}
            </p>
            <p className="mt-1 break-words font-mono" data-testid="request-tool-names">
              {request.toolNames.length > 0 ? request.toolNames.join(", ") : "no tools"}
            </p>
          </li>
        ))}
      </ol>
    </details>
  );
}
