// Clean shutdown of an app process. On the first SIGTERM, SIGINT or SIGHUP `begin` runs at once,
// synchronously (the app stops the MCP pool from reconnecting or spawning: a stdio child may die of
// the same signal), then the steps run in order (the app passes: stop the session manager, then
// close the MCP pool, which ends every stdio child: stdin closed, then SIGTERM, then SIGKILL), each
// within a deadline so a stuck step cannot hold the process, and the process exits with 128 + the
// signal number. Another handler may end the process
// first (Next.js exits as soon as its HTTP server has closed), so an `exit` hook also signals every
// stdio child still running, synchronously: no MCP child outlives the app. A second signal exits at once.
export type ShutdownStep = { name: string; run: () => Promise<void> };

export type ShutdownOptions = {
  /** Runs synchronously as the first signal arrives, before any step. */
  begin?: () => void;
  steps: ShutdownStep[];
  /** Signals every stdio child still running, synchronously (ConnectionPool.killChildrenNow). */
  killChildrenNow: () => void;
  /** Per step; default 5 s. */
  stepTimeoutMs?: number;
  exit?: (code: number) => void;
};

const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
type HandledSignal = keyof typeof EXIT_CODES;

/** Installs the handlers; returns a function that removes them again. */
export function installGracefulShutdown(options: ShutdownOptions): () => void {
  const { begin, steps, killChildrenNow, stepTimeoutMs = 5_000, exit = (code: number) => process.exit(code) } = options;
  let isShuttingDown = false;
  const onSignal = (signal: HandledSignal) => {
    if (isShuttingDown) {
      killChildrenNow();
      exit(EXIT_CODES[signal]);
      return;
    }
    isShuttingDown = true;
    console.log(`[patchbay] ${signal}: shutting down`);
    try {
      begin?.();
    } catch (error) {
      console.error("[patchbay] shutdown: begin failed", error);
    }
    void runSteps(steps, stepTimeoutMs).then(() => exit(EXIT_CODES[signal]));
  };
  const onExit = () => killChildrenNow();
  const handlers = (Object.keys(EXIT_CODES) as HandledSignal[]).map((signal) => {
    const handler = () => onSignal(signal);
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  process.on("exit", onExit);
  return () => {
    for (const remove of handlers) remove();
    process.off("exit", onExit);
  };
}

async function runSteps(steps: ShutdownStep[], timeoutMs: number): Promise<void> {
  for (const step of steps) {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const outcome = await Promise.race([step.run().then(() => "done" as const), deadline]).catch((error: unknown) => {
      console.error(`[patchbay] shutdown: ${step.name} failed`, error);
      return "failed" as const;
    });
    clearTimeout(timer);
    if (outcome === "timeout") console.warn(`[patchbay] shutdown: ${step.name} did not finish within ${timeoutMs} ms`);
  }
}
