// Shapes an AI SDK OpenAI Responses request for the ChatGPT (Codex) backend: the Codex CLI's headers
// (bearer token, ChatGPT-Account-ID, originator, OpenAI-Beta, session_id, Accept: text/event-stream)
// and the body fields the backend insists on: `store: false`, `stream: true`, no
// `max_output_tokens`, `instructions` = the Codex CLI's stock prompt for the model (the backend has
// refused anything else; codex-instructions.ts), Patchbay's own system prompt (persona, tool
// guidance) as ONE developer message at the start of `input`, as Codex itself sends its own
// guidance, and `include: ["reasoning.encrypted_content"]` whenever reasoning is on (store is off,
// so reasoning can only be carried forward encrypted). Pure.
import type { StoredTokens } from "../subscriptions/account-tokens.ts";
import type { ShapedRequest } from "../subscriptions/authorized-fetch.ts";

export const CODEX_ORIGINATOR = "codex_cli_rs";
export const CODEX_USER_AGENT = "codex_cli_rs/0.63.0 (Linux; x86_64) patchbay";
const ENCRYPTED_REASONING = "reasoning.encrypted_content";

type Item = { type?: string; role?: string; content?: unknown };

function itemText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as { text?: unknown }[])
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

const isInstruction = (item: Item) =>
  (item.type === undefined || item.type === "message") && (item.role === "system" || item.role === "developer");

const developerMessage = (text: string) => ({
  type: "message",
  role: "developer",
  content: [{ type: "input_text", text }],
});

/** The Codex body; `instructions` is the stock Codex prompt for the request's model. */
export function shapeCodexBody(body: Record<string, unknown>, instructions: string): Record<string, unknown> {
  const input: Item[] =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : ((body.input as Item[]) ?? []);
  const guidance = [
    typeof body.instructions === "string" ? body.instructions : "",
    ...input.filter(isInstruction).map((item) => itemText(item.content)),
  ]
    .filter((section) => section.trim() !== "")
    .join("\n\n");
  const shaped: Record<string, unknown> = {
    ...body,
    instructions,
    input: [...(guidance ? [developerMessage(guidance)] : []), ...input.filter((item) => !isInstruction(item))],
    store: false,
    stream: true,
  };
  delete shaped.max_output_tokens;
  if (body.reasoning !== undefined && body.reasoning !== null) {
    const include = Array.isArray(body.include) ? (body.include as string[]) : [];
    shaped.include = include.includes(ENCRYPTED_REASONING) ? include : [...include, ENCRYPTED_REASONING];
  }
  return shaped;
}

export type CodexRequestContext = {
  accountId: string;
  sessionId: string;
  /** The Codex stock prompt for a model id (codex-instructions.ts). */
  instructionsFor: (model: string) => string;
};

export function shapeChatGptRequest(
  url: string,
  init: RequestInit,
  tokens: StoredTokens,
  context: CodexRequestContext,
): ShapedRequest {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${tokens.accessToken}`);
  headers.set("chatgpt-account-id", context.accountId);
  headers.set("originator", CODEX_ORIGINATOR);
  headers.set("openai-beta", "responses=experimental");
  headers.set("session_id", context.sessionId);
  headers.set("accept", "text/event-stream");
  headers.set("user-agent", CODEX_USER_AGENT);
  const isResponses = new URL(url).pathname.endsWith("/responses") && typeof init.body === "string";
  const parsed = isResponses ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
  const body = parsed
    ? JSON.stringify({
        ...shapeCodexBody(parsed, context.instructionsFor(typeof parsed.model === "string" ? parsed.model : "")),
        prompt_cache_key: context.sessionId,
      })
    : init.body;
  return { url, init: { ...init, headers, body } };
}
