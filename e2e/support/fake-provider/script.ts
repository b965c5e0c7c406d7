// The fake provider's reply model: a provider-neutral description of one model turn (text, reasoning
// and tool-call steps, pacing, errors, usage) that each wire-format encoder turns into its own SSE
// stream, plus the deterministic "echo" mode used by e2e tests. The zod schema is the contract for
// replies scripted over HTTP (POST /_fake/script); in-process callers may also pass a function of the
// parsed request. Pure: no I/O.
import { z } from "zod";

export const PROVIDER_IDS = ["anthropic", "openai", "google", "compat"] as const;
export const providerIdSchema = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof providerIdSchema>;

/** Text is split on word boundaries unless chunkSize (characters per chunk) is given. */
const chunkSize = z.number().int().positive().optional();

export const replyStepSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), chunkSize }),
  /** signature: Anthropic thinking signature, OpenAI encrypted_content, Gemini thoughtSignature. */
  z.object({ type: z.literal("reasoning"), text: z.string(), signature: z.string().optional(), chunkSize }),
  z.object({
    type: z.literal("tool-call"),
    name: z.string().min(1),
    args: z.record(z.string(), z.unknown()).optional(),
    /** The provider's call id (toolu_…, call_…); generated when absent. Gemini sends none. */
    id: z.string().optional(),
    /** Gemini only: the functionCall part's thoughtSignature; generated when absent. */
    signature: z.string().optional(),
    chunkSize,
  }),
]);
export type ReplyStep = z.infer<typeof replyStepSchema>;

/** The request fails before any byte of the stream: HTTP status + the provider's error JSON. */
export const httpErrorSchema = z.object({
  status: z.number().int().min(400).max(599),
  message: z.string(),
  /** The provider's error type / status string; chosen from the HTTP status when absent. */
  type: z.string().optional(),
  /** Extra response headers, e.g. `{ "retry-after": "20" }`. */
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * The stream fails after `midStreamAfterChunks` content chunks (text, reasoning or tool-argument
 * deltas) were sent: with the provider's error event, or by closing the socket when `abrupt` (the
 * default for Gemini, which has no error event of its own on the wire).
 */
export const midStreamErrorSchema = z.object({
  midStreamAfterChunks: z.number().int().min(0),
  message: z.string(),
  type: z.string().optional(),
  abrupt: z.boolean().optional(),
});
export type MidStreamError = z.infer<typeof midStreamErrorSchema>;

export const scriptedReplySchema = z.object({
  /**
   * Only a request whose latest user text contains this takes the reply (a reply without it goes to
   * the next request of its provider). Lets tests that run at the same time script one provider
   * without taking each other's replies.
   */
  forMessage: z.string().min(1).optional(),
  /**
   * Which test attempt scripted it (Playwright's test id and retry). A reply scripted for the same
   * `forMessage` by another attempt drops the earlier attempt's unconsumed ones: a retried test sends
   * the same texts, and must not take the replies its failed attempt left queued.
   */
  attempt: z.string().min(1).optional(),
  steps: z.array(replyStepSchema).optional(),
  /** Pause between SSE events, for slow streams and cancellation tests. */
  delayMs: z.number().min(0).optional(),
  error: z.union([httpErrorSchema, midStreamErrorSchema]).optional(),
  /** Token counts reported at the end; estimated from the request and reply (chars / 4) when absent. */
  usage: z
    .object({ inputTokens: z.number().int(), outputTokens: z.number().int(), reasoningTokens: z.number().int() })
    .partial()
    .optional(),
});
export type ScriptedReply = z.infer<typeof scriptedReplySchema>;

/** What the echo mode (and reply functions) can see of a request, whatever its wire format. */
export interface ParsedRequest {
  model: string;
  /** Text of the last user message that has any text (tool results are not user text). */
  lastUserText: string | undefined;
  /** The tool results the request ends with (empty unless its last message carries tool results). */
  toolResults: ToolResultView[];
  /** Names of the function tools declared in the request, in order. */
  toolNames: string[];
}
export interface ToolResultView {
  callId: string | undefined;
  /** Resolved from the matching tool call earlier in the request when the wire format omits it. */
  name: string | undefined;
  content: string;
}

export type ReplyFunction = (request: ParsedRequest) => ScriptedReply;
export type ReplySource = ScriptedReply | ReplyFunction | "echo";

export const DEFAULT_REPLY_TEXT = "Hello from the fake provider.";
export const defaultReply: ScriptedReply = { steps: [{ type: "text", text: DEFAULT_REPLY_TEXT }] };

/** Whether `request` may take `source` from a queue: see `forMessage`. */
export function isFor(source: ReplySource, request: ParsedRequest): boolean {
  if (typeof source !== "object" || source.forMessage === undefined) return true;
  return request.lastUserText?.includes(source.forMessage) ?? false;
}

export function resolveReply(source: ReplySource, request: ParsedRequest): ScriptedReply {
  if (source === "echo") return echoReply(request);
  return typeof source === "function" ? source(request) : source;
}

const textReply = (text: string): ScriptedReply => ({ steps: [{ type: "text", text }] });

/**
 * Echo mode, in order of precedence:
 * - the request ends with tool results → "Tool <name> returned: <content>" (one line per result);
 * - the last user text contains `use tool <name> {json args}` → a tool call (args optional, `{}`);
 * - the last user text starts with `list tools` → "Tools: a, b" (or "Tools: (none)");
 * - otherwise → "Echo: <last user text>", or the default text when there is none.
 */
export function echoReply(request: ParsedRequest): ScriptedReply {
  if (request.toolResults.length > 0) {
    return textReply(
      request.toolResults.map((r) => `Tool ${r.name ?? r.callId ?? "(unknown)"} returned: ${r.content}`).join("\n"),
    );
  }
  const said = request.lastUserText?.trim() ?? "";
  const call = /\buse tool\s+([^\s{]+)(?:\s*(\{[\s\S]*\}))?/i.exec(said);
  if (call?.[1]) {
    const args = parseArgs(call[2]);
    if (args === undefined) return textReply(`Echo: invalid JSON arguments for tool ${call[1]}`);
    return { steps: [{ type: "tool-call", name: call[1], args }] };
  }
  if (/^list tools\b/i.test(said)) return textReply(`Tools: ${request.toolNames.join(", ") || "(none)"}`);
  return textReply(said === "" ? DEFAULT_REPLY_TEXT : `Echo: ${said}`);
}

function parseArgs(json: string | undefined): Record<string, unknown> | undefined {
  if (json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
