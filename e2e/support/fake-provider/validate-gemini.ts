// What the Gemini API refuses with 400 INVALID_ARGUMENT, checked on every generateContent request to
// the fake provider (and on the inner `request` of a Code Assist envelope): function declaration
// names (start with a letter or `_`, then `[a-zA-Z0-9_.:-]`, 64 at most), unique names, and
// `parameters` in the OpenAPI subset or `parametersJsonSchema` as an object schema, never both;
// `contents` non-empty with non-empty parts, starting with a user turn, roles alternating; a model
// turn with functionCall parts followed by a user turn holding one functionResponse per call in the
// same count and order (matching names, and ids when both carry one); a functionResponse only right
// after such a turn. History may call functions no longer declared. Messages follow the real API's
// wording. Pure.
import { asRecord, asString, records } from "./wire.ts";
import {
  checkGeminiParameters,
  checkToolNames,
  firstProblem,
  GEMINI_TOOL_NAME,
  type Problem,
} from "./validate-tools.ts";

type Content = Record<string, unknown>;

function checkTools(body: Record<string, unknown>): Problem {
  const declarations = records(body.tools).flatMap((tool, toolIndex) =>
    records(tool.functionDeclarations ?? tool.function_declarations).map((declaration, index) => ({
      declaration,
      path: `tools[${toolIndex}].function_declarations[${index}]`,
    })),
  );
  return firstProblem(
    () =>
      checkToolNames(
        declarations.map(({ declaration, path }) => ({
          path: `* GenerateContentRequest.${path}.name`,
          name: declaration.name,
        })),
        GEMINI_TOOL_NAME,
      ),
    ...declarations.map(
      ({ declaration, path }) =>
        () =>
          checkGeminiParameters(declaration, path),
    ),
  );
}

const roleOf = (content: Content) => asString(content.role) ?? "user";
const partsOf = (content: Content | undefined) => (content ? records(content.parts) : []);
const callsOf = (content: Content | undefined) =>
  partsOf(content).flatMap((part) => (part.functionCall === undefined ? [] : [asRecord(part.functionCall)]));
const responsesOf = (content: Content | undefined) =>
  partsOf(content).flatMap((part) => (part.functionResponse === undefined ? [] : [asRecord(part.functionResponse)]));

function checkShape(contents: Content[]): Problem {
  if (contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified";
  if (roleOf(contents[0]!) !== "user") return "Please ensure that multiturn requests start with a user turn.";
  for (const [index, content] of contents.entries()) {
    const role = roleOf(content);
    if (role !== "user" && role !== "model")
      return `* GenerateContentRequest.contents[${index}].role: must be user or model`;
    if (partsOf(content).length === 0)
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`;
    if (index > 0 && roleOf(contents[index - 1]!) === role) {
      return `Please ensure that multiturn requests alternate between user and model (contents[${index}] repeats "${role}").`;
    }
  }
  return undefined;
}

const COUNT_MISMATCH =
  "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";

function checkCallPairing(contents: Content[]): Problem {
  for (const [index, content] of contents.entries()) {
    const responses = responsesOf(content);
    if (responses.length > 0 && (roleOf(content) !== "user" || callsOf(contents[index - 1]).length === 0)) {
      return `Please ensure that function response turn comes immediately after a function call turn (contents[${index}]).`;
    }
    const calls = callsOf(content);
    if (calls.length === 0) continue;
    if (roleOf(content) !== "model") return `contents[${index}]: functionCall parts belong in model turns`;
    const answers = responsesOf(contents[index + 1]);
    if (answers.length !== calls.length)
      return `${COUNT_MISMATCH} (contents[${index}] has ${calls.length}, the next turn ${answers.length})`;
    for (const [at, call] of calls.entries()) {
      const answer = answers[at]!;
      const isSameId = call.id === undefined || answer.id === undefined || call.id === answer.id;
      if (answer.name !== call.name || !isSameId) {
        return `contents[${index + 1}].parts: function response ${at} (${String(answer.name)}) does not answer function call ${at} (${String(call.name)}) of the function call turn; keep the same order.`;
      }
    }
  }
  return undefined;
}

/** The first reason the Gemini API would refuse this request body, or undefined. */
export function validateGeminiRequest(body: Record<string, unknown>): Problem {
  const contents = records(body.contents);
  return firstProblem(
    () => checkTools(body),
    () => checkShape(contents),
    () => checkCallPairing(contents),
  );
}
