// What the Anthropic Messages API refuses with 400 invalid_request_error, checked on every request
// to the fake provider (API key and Claude subscription alike): tool names and `input_schema`
// (`type: "object"`), unique tool names; `messages` non-empty, starting with `user`, roles
// alternating, no empty content; unique `tool_use` ids; every `tool_use` of an assistant message
// answered by a `tool_result` with the same id at the START of the next user message; no
// `tool_result` without a `tool_use` in the message before; tool blocks only when tools are
// declared. History may call tools that are no longer declared (the API allows that).
// Messages follow the real API's wording. Pure.
import { asString, records } from "./wire.ts";
import {
  ANTHROPIC_TOOL_NAME,
  checkObjectSchema,
  checkToolNames,
  firstProblem,
  type Problem,
} from "./validate-tools.ts";

type Block = Record<string, unknown>;

const blocksOf = (content: unknown): Block[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : records(content);

function checkTools(body: Record<string, unknown>): Problem {
  const tools = records(body.tools);
  const custom = tools
    .map((tool, index) => ({ tool, path: `tools.${index}` }))
    .filter(({ tool }) => tool.type === undefined || tool.type === "custom");
  return firstProblem(
    () =>
      checkToolNames(
        tools.map((tool, index) => ({ path: `tools.${index}.name`, name: tool.name })),
        ANTHROPIC_TOOL_NAME,
      ),
    ...custom.map(
      ({ tool, path }) =>
        () =>
          checkObjectSchema(tool.input_schema, `${path}.input_schema`),
    ),
  );
}

function checkShape(messages: Record<string, unknown>[]): Problem {
  if (messages.length === 0) return "messages: at least one message is required";
  if (messages[0]!.role !== "user") return 'messages: first message must use the "user" role';
  for (const [index, message] of messages.entries()) {
    if (message.role !== "user" && message.role !== "assistant") {
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    }
    if (index > 0 && messages[index - 1]!.role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${String(message.role)}" roles in a row`;
    }
    const blocks = blocksOf(message.content);
    const isFinalAssistant = index === messages.length - 1 && message.role === "assistant";
    if (blocks.length === 0 && !isFinalAssistant) {
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const emptyText = blocks.findIndex((block) => block.type === "text" && block.text === "");
    if (emptyText >= 0) return `messages.${index}.content.${emptyText}: text content blocks must be non-empty`;
  }
  return undefined;
}

const toolUseIds = (message: Record<string, unknown> | undefined) =>
  message?.role === "assistant"
    ? blocksOf(message.content).flatMap((block) => (block.type === "tool_use" ? [asString(block.id) ?? ""] : []))
    : [];

/** The tool_use ↔ tool_result pairing between each assistant message and the user message after it. */
function checkPairing(messages: Record<string, unknown>[]): Problem {
  const seenIds = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const blocks = blocksOf(message.content);
    if (message.role === "assistant") {
      for (const [at, block] of blocks.entries()) {
        if (block.type === "tool_result")
          return `messages.${index}.content.${at}: tool_result blocks belong in user messages`;
        if (block.type !== "tool_use") continue;
        const id = asString(block.id) ?? "";
        if (seenIds.has(id)) return `messages.${index}.content.${at}: \`tool_use\` ids must be unique (${id})`;
        seenIds.add(id);
      }
      continue;
    }
    const expected = toolUseIds(messages[index - 1]);
    const leading = blocks.findIndex((block) => block.type !== "tool_result");
    const results = blocks
      .slice(0, leading < 0 ? blocks.length : leading)
      .map((block) => asString(block.tool_use_id) ?? "");
    const late = blocks.findIndex((block, at) => at >= results.length && block.type === "tool_result");
    if (late >= 0) return `messages.${index}.content.${late}: tool_result blocks must come before any other content`;
    const unexpected = results.filter((id) => !expected.includes(id));
    if (unexpected.length > 0) {
      return `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    if (new Set(results).size !== results.length)
      return `messages.${index}: duplicate \`tool_result\` for one \`tool_use\``;
    const missing = expected.filter((id) => !results.includes(id));
    if (missing.length > 0) return missingResults(index - 1, missing);
  }
  const trailing = toolUseIds(messages.at(-1));
  return trailing.length > 0 ? missingResults(messages.length - 1, trailing) : undefined;
}

const missingResults = (index: number, ids: string[]) =>
  `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;

function checkToolsDeclared(body: Record<string, unknown>, messages: Record<string, unknown>[]): Problem {
  if (records(body.tools).length > 0) return undefined;
  const hasToolBlocks = messages.some((message) =>
    blocksOf(message.content).some((block) => block.type === "tool_use" || block.type === "tool_result"),
  );
  return hasToolBlocks ? "Requests which include `tool_use` or `tool_result` blocks must define tools." : undefined;
}

/** The first reason the Messages API would refuse this request body, or undefined. */
export function validateAnthropicRequest(body: Record<string, unknown>): Problem {
  const messages = records(body.messages);
  return firstProblem(
    () => checkTools(body),
    () => checkShape(messages),
    () => checkPairing(messages),
    () => checkToolsDeclared(body, messages),
  );
}
