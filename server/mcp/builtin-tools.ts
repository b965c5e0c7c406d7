// Tools Patchbay itself provides to every session, with no MCP server involved. They prove the
// tool loop end to end and stay useful beside MCP connectors. Canonical names are `builtin.<tool>`.
import type { JsonValue, ToolSnapshot, ToolSpec } from "../core/canonical.ts";
import { ToolError, type ToolCallRequest, type ToolOutcome, type ToolSource } from "../core/tool-source.ts";
import { exposeToolNames } from "../core/tool-names.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import { BUILTIN_CONNECTOR } from "./connector-names.ts";
import type { ListSource } from "./snapshot-manifest.ts";
import { hashToolList } from "./tool-lists.ts";

export type BuiltinTool = Omit<ToolSpec, "exposedName"> & {
  run(args: Record<string, JsonValue>, signal: AbortSignal): Promise<JsonValue>;
};

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const currentTime: BuiltinTool = {
  canonicalName: "builtin.current_time",
  description: "Returns the current date and time, optionally in a given IANA time zone (e.g. Europe/Paris).",
  inputSchema: {
    type: "object",
    properties: { timezone: { type: "string", description: "IANA time zone name; default UTC" } },
    additionalProperties: false,
  },
  run: (args) => {
    const zone = typeof args.timezone === "string" && args.timezone ? args.timezone : "UTC";
    if (!isValidTimeZone(zone)) {
      return Promise.reject(new ToolError("invalid_arguments", `Unknown time zone "${zone}".`));
    }
    const now = new Date();
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: zone, dateStyle: "full", timeStyle: "long" });
    return Promise.resolve({ iso: now.toISOString(), timezone: zone, local: local.format(now) });
  },
};

/** The turn runs these itself (it pauses or ends); reaching run() means a call outside a turn. */
function runsInTurn(name: string) {
  return () => Promise.reject(new ToolError("failed", `${name} can only be called by the model during an answer.`));
}

const askFollowupQuestion: BuiltinTool = {
  canonicalName: ASK_FOLLOWUP_QUESTION,
  description:
    "Asks the user a question and waits for the answer, which comes back as this tool's result. Use it when you need information or a decision only the user can give. Offer likely answers as `options` (the user may also type their own).",
  inputSchema: {
    type: "object",
    properties: {
      question: { type: "string", description: "The question, clear and specific." },
      options: {
        type: "array",
        items: { type: "string" },
        description: "Suggested answers the user can pick with one click (2 to 5 short ones).",
      },
    },
    required: ["question"],
    additionalProperties: false,
  },
  run: runsInTurn("ask_followup_question"),
};

const attemptCompletion: BuiltinTool = {
  canonicalName: ATTEMPT_COMPLETION,
  description:
    "Declares the task done and ends your answer: `result` (Markdown) is shown to the user as the final answer, and you get no further turn. Call it only when the work is complete.",
  inputSchema: {
    type: "object",
    properties: { result: { type: "string", description: "The final answer for the user, in Markdown." } },
    required: ["result"],
    additionalProperties: false,
  },
  run: runsInTurn("attempt_completion"),
};

export const builtinTools: readonly BuiltinTool[] = [currentTime, askFollowupQuestion, attemptCompletion];

/** The built-in tools as a ToolSource (revision 0: they never change at run time). */
export function createBuiltinToolSource(tools: readonly BuiltinTool[] = builtinTools): ToolSource {
  const names = exposeToolNames(tools.map((tool) => tool.canonicalName));
  const snapshot: ToolSnapshot = {
    revision: 0,
    tools: tools.map(({ canonicalName, description, inputSchema }) => ({
      canonicalName,
      exposedName: names.get(canonicalName) ?? canonicalName,
      description,
      inputSchema,
    })),
  };
  return {
    snapshot: () => Promise.resolve(snapshot),
    call: async (_sessionId: string, request: ToolCallRequest, signal: AbortSignal): Promise<ToolOutcome> => {
      const tool = tools.find((candidate) => candidate.canonicalName === request.canonicalName);
      if (!tool) throw new ToolError("unknown_tool", `There is no tool named ${request.canonicalName}.`);
      return { output: await tool.run(request.args, signal), isError: false };
    },
  };
}

/** The built-ins as the tool list of the `builtin` connector, stored by hash like any other. */
export function builtinToolList(tools: readonly BuiltinTool[]): ListSource {
  const list = tools.map((tool) => ({
    name: tool.canonicalName.slice(BUILTIN_CONNECTOR.length + 1),
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  return { name: BUILTIN_CONNECTOR, list: hashToolList(list) };
}
