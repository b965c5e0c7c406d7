// The tool convention for models without native tool calling (OPENAI_COMPATIBLE_NATIVE_TOOLS=false):
// tools are described in the system prompt, the model writes
//   <tool_use><server>…</server><tool>…</tool><arguments>{json}</arguments></tool_use>
// (parsed back by hidden-tool-calls.ts), and history calls and results are rendered as text in the
// same form. Tools are named by their canonical `server.tool` split at the first dot, so a parsed
// call maps back to `${server}.${tool}`. Pure.
import type { JsonValue, ToolCallPart, ToolResultPart, ToolSpec } from "../core/canonical.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import { canonicalError } from "./error-output.ts";

export type SplitToolName = { server: string; tool: string };

/** `github.search.issues` → server `github`, tool `search.issues`; a name without a dot is its own server. */
export function splitCanonicalName(canonicalName: string): SplitToolName {
  const dot = canonicalName.indexOf(".");
  if (dot <= 0) return { server: canonicalName, tool: canonicalName };
  return { server: canonicalName.slice(0, dot), tool: canonicalName.slice(dot + 1) };
}

function stringifyOutput(output: JsonValue): string {
  return typeof output === "string" ? output : JSON.stringify(output);
}

/** The block a model would have written for this call. */
export function toolCallAsText(call: ToolCallPart): string {
  const { server, tool } = splitCanonicalName(call.name);
  return `<tool_use><server>${server}</server><tool>${tool}</tool><arguments>${JSON.stringify(call.args)}</arguments></tool_use>`;
}

/** How a result is shown back to the model: `<output>` on success, `<error>` on failure. */
export function toolResultAsText(call: ToolCallPart, result: ToolResultPart): string {
  const { server, tool } = splitCanonicalName(call.name);
  const tag = result.isError ? "error" : "output";
  const body = result.isError ? JSON.stringify(canonicalError(result.output)) : stringifyOutput(result.output);
  return `<tool_result><server>${server}</server><tool>${tool}</tool><${tag}>${body}</${tag}></tool_result>`;
}

function describeTool(spec: ToolSpec): string {
  const { server, tool } = splitCanonicalName(spec.canonicalName);
  return [
    `- server: ${server}, tool: ${tool}`,
    `  description: ${spec.description || "(none)"}`,
    `  arguments JSON Schema: ${JSON.stringify(spec.inputSchema)}`,
  ].join("\n");
}

/** The system-prompt section that teaches the convention and lists the tools; empty for no tools. */
export function describeToolsForPrompt(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return "";
  return [
    "# Tools",
    "You can call the tools listed below. To call one, write a block exactly like this and then stop:",
    '<tool_use><server>SERVER</server><tool>TOOL</tool><arguments>{"name": "value"}</arguments></tool_use>',
    "The arguments must be one JSON object that matches the tool's schema. You may write several blocks",
    "in one reply. Each result comes back in a <tool_result> block with an <output> or an <error>.",
    "",
    "Available tools:",
    ...tools.map(describeTool),
    ...describeTalkBackForms(tools),
  ].join("\n");
}

/** The short forms of the talk-back built-ins (hidden-tool-calls.ts), for those the chat has. */
function describeTalkBackForms(tools: readonly ToolSpec[]): string[] {
  const names = new Set(tools.map((tool) => tool.canonicalName));
  const lines: string[] = [];
  if (names.has(ASK_FOLLOWUP_QUESTION))
    lines.push(
      "To ask the user a question and wait for the answer, you may also write:",
      '<ask_followup_question><question>QUESTION</question><options>["first", "second"]</options></ask_followup_question>',
    );
  if (names.has(ATTEMPT_COMPLETION))
    lines.push(
      "When the task is done, you may end with your final answer (Markdown) as:",
      "<attempt_completion><result>FINAL ANSWER</result></attempt_completion>",
    );
  return lines.length > 0 ? ["", ...lines] : [];
}
