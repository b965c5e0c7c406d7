// A tool call inside an answer: tool name, arguments, and its result or error once it arrives.
import type { ToolResultView } from "./chat-state.ts";

type Props = { name: string; args: unknown; result: ToolResultView | undefined; isTurnLive: boolean };

const MAX_PREVIEW = 2_000;

function format(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return text.length > MAX_PREVIEW
    ? `${text.slice(0, MAX_PREVIEW)}\n… (${text.length - MAX_PREVIEW} more characters)`
    : text;
}

export function ToolCallCard({ name, args, result, isTurnLive }: Props) {
  const status = result ? (result.isError ? "error" : "done") : isTurnLive ? "running" : "no result";
  return (
    <details
      className="my-2 rounded-md border border-zinc-200 bg-zinc-50 text-sm dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="tool-call"
    >
      <summary className="flex cursor-pointer items-center justify-between gap-2 px-3 py-2">
        <span className="font-mono">{name}</span>
        <span
          className={`text-xs ${status === "error" ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"}`}
        >
          {status}
          {result?.durationMs !== undefined && !Number.isNaN(result.durationMs) ? ` · ${result.durationMs} ms` : ""}
        </span>
      </summary>
      <div className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Arguments</p>
        <pre className="overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs">{format(args)}</pre>
        {result && (
          <>
            <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Result</p>
            <pre
              className="overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs"
              data-testid="tool-result"
            >
              {format(result.output)}
            </pre>
          </>
        )}
      </div>
    </details>
  );
}
