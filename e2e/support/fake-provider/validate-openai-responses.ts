// What the OpenAI Responses API (and the ChatGPT Codex backend that speaks it) refuses with 400,
// checked on every request to the fake provider: function tool names and `parameters` (an object
// schema), unique names; in `input`, every `function_call_output` answers an EARLIER
// `function_call` with its `call_id` (once), call ids are unique, and every `function_call` has its
// output before the next user message or the end of the input; with `store: false` nothing may
// point at a stored item (no `item_reference`, no `previous_response_id`, no reasoning item without
// its `encrypted_content`). History may call tools that are no longer declared. Pure.
import { asString, records } from "./wire.ts";
import { checkObjectSchema, checkToolNames, firstProblem, OPENAI_TOOL_NAME, type Problem } from "./validate-tools.ts";

function checkTools(body: Record<string, unknown>): Problem {
  const functions = records(body.tools)
    .map((tool, index) => ({ tool, path: `tools[${index}]` }))
    .filter(({ tool }) => tool.type === "function");
  return firstProblem(
    () =>
      checkToolNames(
        functions.map(({ tool, path }) => ({ path: `Invalid '${path}.name'`, name: tool.name })),
        OPENAI_TOOL_NAME,
      ),
    ...functions.map(
      ({ tool, path }) =>
        () =>
          tool.parameters === undefined || tool.parameters === null
            ? undefined
            : checkObjectSchema(
                tool.parameters,
                `Invalid schema for function '${String(tool.name)}' (${path}.parameters)`,
              ),
    ),
  );
}

const isUserMessage = (item: Record<string, unknown>) =>
  (item.type === undefined || item.type === "message") && item.role === "user";
const noOutput = (callId: string) => `No tool output found for function call ${callId}.`;

function checkCallPairing(items: Record<string, unknown>[]): Problem {
  const calls = new Set<string>();
  const answered = new Set<string>();
  const open: string[] = [];
  for (const [index, item] of items.entries()) {
    if (isUserMessage(item) && open.length > 0) return noOutput(open[0]!);
    const callId = asString(item.call_id) ?? "";
    if (item.type === "function_call") {
      if (calls.has(callId)) return `Invalid 'input[${index}]': duplicate function_call with call_id ${callId}.`;
      calls.add(callId);
      open.push(callId);
    } else if (item.type === "function_call_output") {
      if (!calls.has(callId)) return `No tool call found for function call output with call_id ${callId}.`;
      if (answered.has(callId))
        return `Invalid 'input[${index}]': duplicate function_call_output for call_id ${callId}.`;
      answered.add(callId);
      open.splice(open.indexOf(callId), 1);
    }
  }
  return open.length > 0 ? noOutput(open[0]!) : undefined;
}

function checkStateless(body: Record<string, unknown>, items: Record<string, unknown>[]): Problem {
  if (body.store !== false) return undefined;
  if (body.previous_response_id != null) {
    return "Previous response cannot be used for this organization because store is set to false.";
  }
  for (const [index, item] of items.entries()) {
    const id = asString(item.id) ?? "";
    if (item.type === "item_reference" || (item.type === "reasoning" && item.encrypted_content == null)) {
      return `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input. (input[${index}])`;
    }
  }
  return undefined;
}

/** The first reason the Responses API would refuse this request body, or undefined. */
export function validateOpenAIResponsesRequest(body: Record<string, unknown>): Problem {
  const items = typeof body.input === "string" ? [] : records(body.input);
  return firstProblem(
    () => checkTools(body),
    () => checkCallPairing(items),
    () => checkStateless(body, items),
  );
}
