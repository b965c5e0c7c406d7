// What an OpenAI-compatible Chat Completions endpoint refuses with 400 (OpenAI's own rules, which
// vLLM, llama.cpp and Ollama's chat templates also rely on), checked on every request to the fake
// provider: function tool names and `parameters` (an object schema), unique names; `messages`
// non-empty; every `tool` message's `tool_call_id` answers an entry of an earlier assistant
// `tool_calls` that is still open, once; every `tool_calls` entry is answered before the next user
// or assistant message and before the end of the messages; tool call ids unique. History may call
// tools that are no longer declared. Messages follow OpenAI's wording. Pure.
import { asRecord, asString, records } from "./wire.ts";
import { checkObjectSchema, checkToolNames, firstProblem, OPENAI_TOOL_NAME, type Problem } from "./validate-tools.ts";

function checkTools(body: Record<string, unknown>): Problem {
  const functions = records(body.tools)
    .map((tool, index) => ({ tool, fn: asRecord(tool.function), path: `tools[${index}].function` }))
    .filter(({ tool }) => tool.type === "function");
  return firstProblem(
    () =>
      checkToolNames(
        functions.map(({ fn, path }) => ({ path: `Invalid '${path}.name'`, name: fn.name })),
        OPENAI_TOOL_NAME,
      ),
    ...functions.map(
      ({ fn, path }) =>
        () =>
          fn.parameters === undefined
            ? undefined
            : checkObjectSchema(fn.parameters, `Invalid schema for '${path}.parameters'`),
    ),
  );
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
const unanswered = (open: string[]) =>
  `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;

function checkMessages(messages: Record<string, unknown>[]): Problem {
  if (messages.length === 0) return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  const ids = new Set<string>();
  let open: string[] = [];
  for (const [index, message] of messages.entries()) {
    const role = asString(message.role) ?? "";
    if (!ROLES.has(role)) return `Invalid value: '${role}' at messages[${index}].role.`;
    if ((role === "user" || role === "assistant") && open.length > 0) return unanswered(open);
    if (role === "assistant") {
      for (const call of records(message.tool_calls)) {
        const id = asString(call.id) ?? "";
        if (ids.has(id)) return `Invalid 'messages[${index}].tool_calls': duplicate tool call id ${id}.`;
        ids.add(id);
        open.push(id);
      }
    } else if (role === "tool") {
      const id = asString(message.tool_call_id) ?? "";
      if (!open.includes(id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${index}].tool_call_id ${id}).`;
      }
      open = open.filter((openId) => openId !== id);
    }
  }
  return open.length > 0 ? unanswered(open) : undefined;
}

/** The first reason a Chat Completions endpoint would refuse this request body, or undefined. */
export function validateOpenAICompatRequest(body: Record<string, unknown>): Problem {
  return firstProblem(
    () => checkTools(body),
    () => checkMessages(records(body.messages)),
  );
}
