// Sends one raw tRPC request to the running app, the way a hostile client would: any method, any
// body, with or without a session cookie, and reads what comes back — a JSON envelope or, for a
// subscription, the first event of its event stream. Uses fetch, not Playwright's request, so a
// body can be malformed on purpose and an open stream can be given up after a few seconds.
import type { ProcedureInfo } from "./router-map.ts";

export type Reply = {
  status: number;
  text: string;
  /** The error shape: from a JSON body, or from a stream's `serialized-error` event. */
  error?: { message?: unknown; data?: { appCode?: unknown; httpStatus?: unknown; zodIssues?: unknown } };
  /** A subscription whose stream stayed open without an error. */
  isOpenStream?: boolean;
};

type ErrorEnvelope = { error?: { json?: Reply["error"] } } | { error?: { json?: Reply["error"] } }[];

function errorOf(text: string): Reply["error"] {
  try {
    const parsed = JSON.parse(text) as ErrorEnvelope;
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return first?.error?.json;
  } catch {
    return undefined;
  }
}

async function readStream(response: Response, waitMs: number): Promise<Reply> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), deadline - Date.now()));
    const chunk = await Promise.race([reader.read(), timer]);
    if (chunk === "timeout" || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    const match = /event: serialized-error\ndata: (.*)\n/.exec(text);
    if (match) {
      await reader.cancel();
      const error =
        (JSON.parse(match[1]!) as { json?: Reply["error"] }).json ?? (JSON.parse(match[1]!) as Reply["error"]);
      const status = Number(error?.data?.httpStatus ?? 500);
      return { status, text, error };
    }
  }
  await reader.cancel().catch(() => undefined);
  return { status: response.status, text, isOpenStream: true };
}

/** The method a procedure takes, or the wrong one. */
export function methodFor(procedure: ProcedureInfo, isWrong = false): "GET" | "POST" {
  const isGet = procedure.type !== "mutation";
  return isGet !== isWrong ? "GET" : "POST";
}

export async function callRaw(
  baseUrl: string,
  procedure: ProcedureInfo,
  body: string | undefined,
  options: { cookie?: string; method?: "GET" | "POST"; streamWaitMs?: number } = {},
): Promise<Reply> {
  const method = options.method ?? methodFor(procedure);
  const url = new URL(`/api/trpc/${procedure.path}`, baseUrl);
  if (method === "GET" && body !== undefined) url.searchParams.set("input", body);
  const headers: Record<string, string> = { "content-type": "application/json", origin: new URL(baseUrl).origin };
  if (options.cookie) headers.cookie = options.cookie;
  const response = await fetch(url, {
    method,
    headers,
    body: method === "POST" ? body : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(60_000),
  });
  if (response.headers.get("content-type")?.startsWith("text/event-stream"))
    return readStream(response, options.streamWaitMs ?? 4_000);
  const text = await response.text();
  return { status: response.status, text, error: errorOf(text) };
}
