// Finds tool calls a model wrote as text, for OpenAI-compatible servers without native tool calling
// (render.ts describes the convention in the system prompt). Two block forms are understood:
//   <tool_use><server>s</server><tool>t</tool><arguments>{…}</arguments></tool_use>
//   <use_mcp_tool><server_name>s</server_name><tool_name>t</tool_name><arguments>{…}</arguments></use_mcp_tool>
// and the talk-back built-ins in their own short forms (builtin.ask_followup_question, builtin.attempt_completion):
//   <ask_followup_question><question>…</question><options>["a","b"]</options></ask_followup_question>
//   <attempt_completion><result>…</result></attempt_completion>
// Calls come back in the order they appear. A parsed block is removed from the text; a malformed one
// (no server or tool, arguments that are not a JSON object, a block that never closes) stays in the
// text and adds a warning. Never throws.
import type { JsonValue } from "../core/canonical.ts";

export type HiddenToolCall = { server: string; tool: string; args: Record<string, JsonValue> };
export type HiddenToolCallScan = { calls: HiddenToolCall[]; text: string; warnings: string[] };

const blockPattern = /<(tool_use|use_mcp_tool|ask_followup_question|attempt_completion)>([\s\S]*?)<\/\1>/g;
const openingPattern = /<(tool_use|use_mcp_tool|ask_followup_question|attempt_completion)>/g;
type BlockKind = "tool_use" | "use_mcp_tool" | "ask_followup_question" | "attempt_completion";

const fieldNames = {
  tool_use: { server: "server", tool: "tool" },
  use_mcp_tool: { server: "server_name", tool: "tool_name" },
} as const;

function readField(body: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
  return match?.[1]?.trim();
}

function stripCodeFence(text: string): string {
  const fenced = /^```[a-zA-Z]*\s*([\s\S]*?)\s*```$/.exec(text);
  return fenced?.[1] ?? text;
}

function parseArguments(raw: string | undefined): Record<string, JsonValue> | string {
  const text = stripCodeFence(raw?.trim() ?? "");
  if (text === "") return {};
  try {
    const parsed = JSON.parse(text) as JsonValue;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed;
    return "arguments are not a JSON object";
  } catch {
    return "arguments are not valid JSON";
  }
}

/** `["a","b"]`, or one option per line when the model wrote no JSON array. */
function parseOptions(raw: string | undefined): string[] | string {
  const text = stripCodeFence(raw?.trim() ?? "");
  if (text === "") return [];
  if (!text.startsWith("["))
    return text
      .split("\n")
      .map((line) => line.replace(/^[-*]\s*/, "").trim())
      .filter(Boolean);
  try {
    const parsed = JSON.parse(text) as JsonValue;
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed;
  } catch {
    // falls through to the message below
  }
  return "options are not a JSON array of strings";
}

/** The talk-back short forms: their fields are the call's arguments. */
function parseTalkBackBlock(
  kind: "ask_followup_question" | "attempt_completion",
  body: string,
): HiddenToolCall | string {
  if (kind === "attempt_completion") {
    const result = readField(body, "result");
    return result ? { server: "builtin", tool: kind, args: { result } } : "missing <result>";
  }
  const question = readField(body, "question");
  if (!question) return "missing <question>";
  const options = parseOptions(readField(body, "options"));
  if (typeof options === "string") return options;
  return { server: "builtin", tool: kind, args: options.length > 0 ? { question, options } : { question } };
}

function parseBlock(kind: BlockKind, body: string): HiddenToolCall | string {
  if (kind === "ask_followup_question" || kind === "attempt_completion") return parseTalkBackBlock(kind, body);
  const server = readField(body, fieldNames[kind].server);
  const tool = readField(body, fieldNames[kind].tool);
  if (!server || !tool) return `missing <${fieldNames[kind].server}> or <${fieldNames[kind].tool}>`;
  const args = parseArguments(readField(body, "arguments"));
  return typeof args === "string" ? `${server}.${tool}: ${args}` : { server, tool, args };
}

function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function countUnclosed(text: string): number {
  const withoutBlocks = text.replace(blockPattern, "");
  return [...withoutBlocks.matchAll(openingPattern)].length;
}

/** The tool calls written as text blocks, the text without them, and a warning per malformed block. */
export function extractHiddenToolCalls(text: string): HiddenToolCallScan {
  const calls: HiddenToolCall[] = [];
  const warnings: string[] = [];
  let removedAny = false;
  const remaining = text.replace(blockPattern, (block, kind: BlockKind, body: string) => {
    const parsed = parseBlock(kind, body);
    if (typeof parsed === "string") {
      warnings.push(`Ignored a malformed <${kind}> block (${parsed}).`);
      return block;
    }
    calls.push(parsed);
    removedAny = true;
    return "";
  });
  const unclosed = countUnclosed(text);
  if (unclosed > 0) warnings.push(`Ignored ${unclosed} tool block(s) without a closing tag.`);
  return { calls, text: removedAny ? tidy(remaining) : text, warnings };
}
