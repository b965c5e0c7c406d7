// Shapes an AI SDK Anthropic Messages request for a Claude subscription token, the way Claude Code
// sends it: bearer auth (no x-api-key), `anthropic-beta` including the OAuth beta (merged with any
// betas the SDK set, without duplicates), `?beta=true`, Claude Code's user agent, and a system prompt
// whose first text block is exactly Claude Code's identity sentence (the API refuses subscription
// tokens otherwise). Patchbay's own system prompt follows as the next block. Pure.
import type { StoredTokens } from "../subscriptions/account-tokens.ts";
import type { ShapedRequest } from "../subscriptions/authorized-fetch.ts";

export const CLAUDE_CODE_SYSTEM_PREFIX = "You are Claude Code, Anthropic's official CLI for Claude.";
export const CLAUDE_OAUTH_BETAS = ["oauth-2025-04-20", "interleaved-thinking-2025-05-14"];
export const CLAUDE_CLI_USER_AGENT = "claude-cli/2.1.2 (external, cli)";

type SystemBlock = { type: "text"; text: string; [key: string]: unknown };

function withClaudeCodePrefix(system: unknown): SystemBlock[] {
  const prefix: SystemBlock = { type: "text", text: CLAUDE_CODE_SYSTEM_PREFIX };
  if (typeof system === "string") return system.trim() === "" ? [prefix] : [prefix, { type: "text", text: system }];
  if (!Array.isArray(system)) return [prefix];
  const blocks = system as SystemBlock[];
  return blocks[0]?.type === "text" && blocks[0].text === CLAUDE_CODE_SYSTEM_PREFIX ? blocks : [prefix, ...blocks];
}

function shapeBody(body: RequestInit["body"]): RequestInit["body"] {
  if (typeof body !== "string") return body;
  const json = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify({ ...json, system: withClaudeCodePrefix(json.system) });
}

export function shapeClaudeCodeRequest(url: string, init: RequestInit, tokens: StoredTokens): ShapedRequest {
  const target = new URL(url);
  const isMessages = target.pathname.endsWith("/messages");
  if (isMessages && !target.searchParams.has("beta")) target.searchParams.set("beta", "true");
  const headers = new Headers(init.headers);
  headers.delete("x-api-key");
  headers.set("authorization", `Bearer ${tokens.accessToken}`);
  const betas = (headers.get("anthropic-beta") ?? "")
    .split(",")
    .map((beta) => beta.trim())
    .filter(Boolean);
  headers.set("anthropic-beta", [...new Set([...CLAUDE_OAUTH_BETAS, ...betas])].join(","));
  headers.set("user-agent", CLAUDE_CLI_USER_AGENT);
  headers.set("x-app", "cli");
  return { url: target.toString(), init: { ...init, headers, body: isMessages ? shapeBody(init.body) : init.body } };
}
