// The step limit, as the model is told about it. A turn makes at most `maxSteps` model requests that
// may call tools; when the model is still calling tools at the cap, the last round's results are not
// left unread: ONE more request goes out that offers no tool and carries a note (appended to the
// system prompt) saying the limit was reached and to answer with what it has.
// Invariants of that final request:
// - With native tools, the tools stay declared and the tool choice is `none`: Anthropic refuses a
//   history with tool_use / tool_result blocks unless tools are defined, and every provider honours
//   `none` (Anthropic `tool_choice: {type: "none"}`, OpenAI `tool_choice: "none"`, Gemini
//   `functionCallingConfig.mode: "NONE"`). A snapshot without tools is rendered as the renderer does
//   (tool history as text, nothing declared, no tool choice).
// - With the text convention (nativeTools false), the tool descriptions are left out of the prompt.
// - `toolNames` (the audit) is empty: the model could call nothing.
// - The note goes in the system prompt, not in a trailing user message: Gemini refuses a user turn
//   right after the function responses (two user turns in a row).
// Pure: no I/O.
import { renderRequest, type RenderedRequest, type RenderInput, type StreamTextRequest } from "../providers/render.ts";

/** What the model reads in the final request's system prompt. */
export function stepLimitNote(maxSteps: number): string {
  return [
    `Step limit reached: this answer has used its ${maxSteps} model requests with tools, so no more tools can be called.`,
    "Answer the user now with what you have (the tool results above), and say briefly what is left undone.",
  ].join(" ");
}

export type FinalRequest = Omit<RenderedRequest, "options"> & {
  options: StreamTextRequest & { toolChoice?: "none" };
};

/** The request sent after the step limit: see the module comment. */
export function renderFinalRequest(input: RenderInput, maxSteps: number): FinalRequest {
  const note = stepLimitNote(maxSteps);
  const system = [input.transcript.system?.trim(), note].filter((section) => !!section).join("\n\n");
  const isNative = input.nativeTools !== false;
  const call = renderRequest({
    ...input,
    transcript: { ...input.transcript, system },
    snapshot: isNative ? input.snapshot : { revision: input.snapshot.revision, tools: [] },
    isFollowUp: true,
  });
  const hasTools = call.options.tools !== undefined;
  return {
    ...call,
    toolNames: [],
    options: { ...call.options, ...(hasTools && { toolChoice: "none" as const }) },
  };
}
