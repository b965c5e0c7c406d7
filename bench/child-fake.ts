// Starts the fake provider in its own process (fake-provider-process.ts), so its work (pacing timers
// for every SSE event, reading and parsing request bodies) does not compete with Patchbay for the
// bench process's event loop, as a real provider would not. Its default reply is the concurrency
// bench's slow reply; other benches script theirs over its control endpoints (/_fake/…).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import type { FakeUrls } from "./bench-engine.ts";

export type RunningFake = FakeUrls & { where: string; close(): Promise<void> };

export async function startChildFake(chunks: number, delayMs: number): Promise<RunningFake> {
  const entry = fileURLToPath(new URL("./fake-provider-process.ts", import.meta.url));
  const tsx = import.meta.resolve("tsx"); // the loader this process runs under, wherever it was started from
  const child: ChildProcess = spawn(process.execPath, ["--import", tsx, entry, String(chunks), String(delayMs)], {
    stdio: ["pipe", "pipe", "inherit"], // the child exits when its stdin closes, even if this process dies
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fake provider process exited (${code})`)));
  });
  const { baseUrls } = JSON.parse(firstLine) as FakeUrls;
  return {
    baseUrls,
    where: "child process",
    close: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
