// What the fake provider (server.ts) records of each request, for tests to assert on, and the one log
// line it writes when the request is answered: which reply it took and how it ended.
import { type ParsedRequest, type ProviderId, type ReplySource } from "./script.ts";

export interface RecordedRequest {
  provider: ProviderId;
  method: string;
  path: string;
  /** Lower-case names; authorization, x-api-key and x-goog-api-key are replaced by "present". */
  headers: Record<string, string>;
  /** The parsed JSON body (the raw text when it was not JSON). */
  body: unknown;
  receivedAt: Date;
  status: number;
  /** Why the fake refused the request (a 400 from the strict validators, or a subscription check). */
  error?: string;
  /** The client closed the connection before the stream ended (cancellation reached upstream). */
  aborted: boolean;
}

/** One log line: the request, the reply it took (scripted for which message, echo, …), how it ended. */
export function describeRequest(record: RecordedRequest, request: ParsedRequest, source: ReplySource): string {
  const took =
    typeof source === "string"
      ? source
      : typeof source === "function"
        ? "a reply function"
        : source.forMessage
          ? `the reply scripted for ${JSON.stringify(source.forMessage)}`
          : "a scripted reply";
  const user = JSON.stringify((request.lastUserText ?? "").slice(0, 60));
  const ended = record.aborted ? "aborted by the client" : `status ${record.status}`;
  return `${record.provider} ${record.path}: user ${user}, ${request.toolResults.length} tool results; took ${took}; ${ended}`;
}
