// Canonical names of the built-in tools that talk back to the turn itself (server/session/talk-back.ts):
// one pauses the turn for the user's answer, one ends it with a final answer. Shared with the browser,
// which shows their calls as a question and as the answer's text. Pure constants.
export const ASK_FOLLOWUP_QUESTION = "builtin.ask_followup_question";
export const ATTEMPT_COMPLETION = "builtin.attempt_completion";
