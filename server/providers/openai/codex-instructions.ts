// The `instructions` a ChatGPT (Codex backend) request carries. The backend has refused instructions
// that are not one of the Codex CLI's own stock prompts (400 `{"detail":"Instructions are not
// valid"}`, openai/codex#2259, #3202), so Patchbay never puts its own system prompt there (that goes
// into `input` as a developer message, chatgpt-request.ts). The stock prompts are OpenAI's text and
// are not shipped with Patchbay: an administrator copies the Codex CLI's prompt files into
// CHATGPT_INSTRUCTIONS_DIR, one `<model id>.md` per model plus an optional `default.md`, and each
// request sends the file for its model byte for byte. Without the directory a short neutral line is
// sent, which newer models are reported to accept [unverified]; if the backend refuses it the turn
// says so (safe-error.ts). A directory is read once and kept for the life of the process.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import { AppError } from "../../errors.ts";

export const FALLBACK_CODEX_INSTRUCTIONS = "You are a helpful assistant.";
const DEFAULT_FILE = "default";

export type CodexInstructions = {
  /** The model ids that have their own file ("default" included when present), sorted. */
  models: string[];
  forModel: (model: string) => string;
};

function instructionSet(byModel: Map<string, string>): CodexInstructions {
  return {
    models: [...byModel.keys()].sort(),
    forModel: (model) => byModel.get(model) ?? byModel.get(DEFAULT_FILE) ?? FALLBACK_CODEX_INSTRUCTIONS,
  };
}

async function readDirectory(dir: string): Promise<CodexInstructions> {
  try {
    const names = (await readdir(dir)).filter((name) => name.endsWith(".md"));
    const entries = await Promise.all(
      names.map(async (name) => [name.slice(0, -3), await readFile(path.join(dir, name), "utf8")] as const),
    );
    return instructionSet(new Map(entries));
  } catch (error) {
    throw new AppError(
      "internal:config",
      "The Codex prompt files in CHATGPT_INSTRUCTIONS_DIR could not be read; ask the administrator to check it.",
      { cause: error },
    );
  }
}

const cache = new Map<string, Promise<CodexInstructions>>();

/** The instructions per model from `dir` (cached per directory), or the fallback when `dir` is unset. */
export function loadCodexInstructions(dir: string | undefined): Promise<CodexInstructions> {
  if (!dir) return Promise.resolve(instructionSet(new Map()));
  const cached = cache.get(dir);
  if (cached) return cached;
  const loading = readDirectory(dir);
  cache.set(dir, loading);
  loading.catch(() => cache.delete(dir)); // a fixed directory is read again on the next request
  return loading;
}
