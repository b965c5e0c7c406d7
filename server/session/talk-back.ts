// The built-ins that talk back to the turn instead of running somewhere (builtin-tools.ts):
// - ask_followup_question pauses the call like an approval (policy/followup-questions.ts): a pending
//   question plus a `tool.question` event, then a wait that any app instance's answer ends; the
//   answer (`tool.question.answered`) is the call's result. Stop, Apply now or a lost lease abort
//   the wait; the turn's end expires the question, which can then never be answered.
// - attempt_completion gives the round a completion: its `result` is the turn's final answer (the
//   browser renders the call as the answer's Markdown) and no further model request is made.
// Arguments are checked here, so a malformed call gets an `invalid_arguments` result the model reads.
import type { Db } from "../db/client.ts";
import type { JsonValue, ToolCallPart } from "../core/canonical.ts";
import { toolErrorResult, type ToolOutcome } from "../core/tool-source.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import { askQuestion, waitForAnswer } from "../policy/followup-questions.ts";
import { appendEvent } from "./event-log.ts";

type TurnRef = { id: string; sessionId: string };
/** A talk-back call's result; `completion` is set when the call ends the turn with that answer. */
export type TalkBackOutcome = ToolOutcome & { completion?: string };

const MAX_OPTIONS = 10;
const MAX_QUESTION_CHARS = 2_000;
const MAX_OPTION_CHARS = 200;

export function isTalkBackTool(name: string): boolean {
  return name === ASK_FOLLOWUP_QUESTION || name === ATTEMPT_COMPLETION;
}

/** Runs a talk-back call; throws the abort reason when `signal` fires while it waits. */
export async function runTalkBackCall(
  turn: TurnRef,
  db: Db,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<TalkBackOutcome | "aborted"> {
  if (call.name === ATTEMPT_COMPLETION) return completeTurn(call.args);
  const parsed = parseQuestion(call.args);
  if (typeof parsed === "string") return toolErrorResult("invalid_arguments", parsed);
  return askUser(turn, db, call, parsed, signal);
}

function completeTurn(args: Record<string, JsonValue>): TalkBackOutcome {
  if (typeof args.result !== "string" || !args.result.trim())
    return toolErrorResult("invalid_arguments", "`result` must be the final answer as a non-empty string.");
  return { output: "The result was shown to the user as the final answer.", isError: false, completion: args.result };
}

type Question = { question: string; options: string[] };

function parseQuestion(args: Record<string, JsonValue>): Question | string {
  const { question, options = [] } = args;
  if (typeof question !== "string" || !question.trim()) return "`question` must be a non-empty string.";
  if (!Array.isArray(options) || options.some((option) => typeof option !== "string"))
    return "`options` must be an array of strings.";
  const cleaned = [...new Set((options as string[]).map((option) => option.trim()).filter(Boolean))];
  if (cleaned.length > MAX_OPTIONS) return `Offer at most ${MAX_OPTIONS} options.`;
  return {
    question: question.trim().slice(0, MAX_QUESTION_CHARS),
    options: cleaned.map((option) => option.slice(0, MAX_OPTION_CHARS)),
  };
}

async function askUser(
  turn: TurnRef,
  db: Db,
  call: ToolCallPart,
  { question, options }: Question,
  signal: AbortSignal,
): Promise<TalkBackOutcome | "aborted"> {
  const questionId = await askQuestion(db, {
    sessionId: turn.sessionId,
    turnId: turn.id,
    callId: call.id,
    question,
    options,
  });
  await emit(db, turn, "tool.question", { questionId, callId: call.id, question, options });
  const answered = await waitForAnswer(db, questionId, signal).catch((error: unknown) => {
    if (signal.aborted) return { status: "expired" as const };
    throw error;
  });
  if (answered.status === "expired" || signal.aborted) return "aborted"; // expired: the turn ended elsewhere
  await emit(db, turn, "tool.question.answered", { questionId, callId: call.id, answer: answered.answer });
  return { output: answered.answer, isError: false };
}

function emit(db: Db, turn: TurnRef, type: "tool.question" | "tool.question.answered", data: Record<string, unknown>) {
  return appendEvent(db, { sessionId: turn.sessionId, turnId: turn.id, type, data });
}
