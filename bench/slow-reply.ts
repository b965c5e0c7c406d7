// The scripted reply of the concurrency bench: session i is asked "bench session i" and the fake
// provider answers with `chunks` fixed-width text chunks that name the session and the chunk
// ("s0017c0042 "), paced `delayMs` apart. Because every chunk is unique, the text a subscriber
// receives can be checked chunk by chunk against the script: nothing lost, duplicated or crossed
// between sessions.
import type { ParsedRequest, ScriptedReply } from "../e2e/support/fake-provider/script.ts";

const PROMPT_PREFIX = "bench session ";
const CHUNK_WIDTH = 11;

export const sessionPrompt = (index: number) => `${PROMPT_PREFIX}${index}`;

export function sessionIndexOf(text: string | undefined): number | null {
  const match = /bench session (\d+)/.exec(text ?? "");
  return match ? Number(match[1]) : null;
}

export function sessionChunks(index: number, chunks: number): string[] {
  const pad = (value: number) => String(value).padStart(4, "0");
  return Array.from({ length: chunks }, (_, chunk) => `s${pad(index)}c${pad(chunk)} `);
}

/** The reply function for startFakeProvider's defaultReply: one paced text step per session. */
export function slowReply(chunks: number, delayMs: number) {
  return (request: ParsedRequest): ScriptedReply => {
    const index = sessionIndexOf(request.lastUserText);
    if (index === null) return { steps: [{ type: "text", text: "not a bench session" }] };
    const text = sessionChunks(index, chunks).join("");
    return { steps: [{ type: "text", text, chunkSize: CHUNK_WIDTH }], delayMs };
  };
}
