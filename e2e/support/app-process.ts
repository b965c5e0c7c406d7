// Patchbay as real processes for the lifecycle specs: `npm start` (or `next start`) spawned in a
// process group of its own, so a spec can signal exactly the process an operator's tool would and
// then list whatever is left in the group. `stop()` SIGKILLs the whole group: nothing outlives a spec.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type AppProcess = {
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output: () => string;
  /** The processes still in the group (pid and command), this one included while it runs. */
  groupProcesses: () => { pid: number; command: string }[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => void;
};

export function startAppProcess(command: string, args: string[], env: Record<string, string>): AppProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true, // its own process group, whose id is its pid
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const groupProcesses = () => {
    const listing = execFileSync("ps", ["-e", "-o", "pid=,pgid=,args="], { encoding: "utf8" });
    return listing
      .split("\n")
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => !!match && Number(match[2]) === child.pid)
      .map((match) => ({ pid: Number(match[1]), command: match[3]! }));
  };
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group is gone already
    }
  };
  return { child, output: () => output, groupProcesses, exited, stop };
}

/** Resolves once `url` answers with any HTTP status; throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** True while something accepts connections on `url`. */
export function isServing(url: string): Promise<boolean> {
  return fetch(url).then(
    () => true,
    () => false,
  );
}
