// Which `instructions` a ChatGPT request carries: the Codex CLI's stock prompt for the model from the
// administrator's directory (`<model>.md`, else `default.md`), byte for byte, else the fallback line.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { FALLBACK_CODEX_INSTRUCTIONS, loadCodexInstructions } from "./codex-instructions.ts";

describe("loadCodexInstructions", () => {
  it("picks the model's own prompt, then default.md, keeping the text exactly as written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "codex-prompts-"));
    await writeFile(path.join(dir, "gpt-5.1-codex-max.md"), "Max prompt.\n\nSecond paragraph.\n");
    await writeFile(path.join(dir, "default.md"), "Default prompt.\n");
    await writeFile(path.join(dir, "notes.txt"), "ignored");
    const instructions = await loadCodexInstructions(dir);
    expect(instructions.forModel("gpt-5.1-codex-max")).toBe("Max prompt.\n\nSecond paragraph.\n");
    expect(instructions.forModel("gpt-5.1")).toBe("Default prompt.\n");
    expect(instructions.models).toEqual(["default", "gpt-5.1-codex-max"]);
  });

  it("falls back to a short neutral line when no directory is configured", async () => {
    const instructions = await loadCodexInstructions(undefined);
    expect(instructions.forModel("gpt-5.1-codex")).toBe(FALLBACK_CODEX_INSTRUCTIONS);
  });

  it("fails clearly when the configured directory cannot be read", async () => {
    await expect(loadCodexInstructions("/nonexistent/patchbay-codex")).rejects.toMatchObject({
      code: "internal:config",
      message: expect.stringContaining("CHATGPT_INSTRUCTIONS_DIR") as unknown,
    });
  });
});
