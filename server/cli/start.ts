// `npm start`: builds the app if the build is missing or older than the sources, then serves it on
// HOST:PORT (default 127.0.0.1:3000) with Patchbay's own server (serve.ts: Next.js's handler, the
// API's hot paths answered before it). With no DATABASE_URL and no sign-in provider configured this
// is Patchbay on embedded defaults: the embedded Postgres in PATCHBAY_DATA_DIR and the local account.
// Process contract (npm runs this with `exec node`, so npm's child is this process):
// - SIGTERM, SIGINT and SIGHUP go to the build or server child, and this process exits with it (the
//   server's own code: 143, 130, 129 after its graceful shutdown). npm forwards only SIGTERM and
//   SIGINT and dies of SIGHUP, so when npm goes away this process stops the server as on SIGHUP.
// - A child that has not exited 30 s after the first signal is killed; nothing is left running.
// - One address is printed: Patchbay's own line; Next.js's "Local:" / "Network:" lines are dropped.
// - PATCHBAY_WORKERS=N (N > 1) serves with N serve.ts worker processes sharing the one socket
//   (node:cluster, connections handed out round-robin); each is an instance as separate machines
//   would be, coordinated through Postgres (instance lock, leases, NOTIFY). Signals go to every
//   worker; when one exits on its own the others are stopped and this process exits with its code.
//   The primary also relays each chat's events between the workers that follow it
//   (worker-relay-primary.ts).
import { type ChildProcess, spawn } from "node:child_process";
import cluster from "node:cluster";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { constants } from "node:os";
import { createInterface } from "node:readline";

import { applyMigrations } from "../db/migrate.ts";
import { env } from "../env.ts";
import { relayBetweenWorkers } from "./worker-relay-primary.ts";

const root = path.resolve(import.meta.dirname, "../..");
const sourceRoots = ["app", "components", "server", "prisma", "package.json", "next.config.mjs", "postcss.config.mjs"];
const FORWARDED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
type ForwardedSignal = (typeof FORWARDED_SIGNALS)[number];
const KILL_AFTER_MS = 30_000;
const PARENT_CHECK_MS = 250;
/** Next.js's own address lines: Patchbay prints the one address to open. */
const NEXT_ADDRESS_LINE = /^\s*-\s*(Local|Network):/;

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  if (path.basename(target) === "generated") return 0;
  const entries = await readdir(target);
  const times = await Promise.all(entries.map((entry) => newestMtime(path.join(target, entry))));
  return Math.max(info.mtimeMs, ...times);
}

async function isBuildCurrent(): Promise<boolean> {
  const build = await stat(path.join(root, ".next", "BUILD_ID")).catch(() => undefined);
  if (!build) return false;
  const sources = await Promise.all(sourceRoots.map((entry) => newestMtime(path.join(root, entry))));
  return build.mtimeMs >= Math.max(...sources);
}

/** What a signal is passed to: the build or server process, or every worker. */
let child: { kill(signal: NodeJS.Signals): void } | null = null;
let stopSignal: ForwardedSignal | null = null;

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

/** Passes a signal on to the running child (the first one also arms the kill deadline). */
function stop(signal: ForwardedSignal): void {
  const isFirst = stopSignal === null;
  stopSignal ??= signal;
  if (!child) process.exit(exitCodeOf(null, signal));
  child.kill(signal);
  if (isFirst) setTimeout(() => child?.kill("SIGKILL"), KILL_AFTER_MS).unref();
}

for (const signal of FORWARDED_SIGNALS) process.on(signal, () => stop(signal));
// npm dies of SIGHUP without passing it on, and a killed npm leaves this process to init.
const parentPid = process.ppid;
setInterval(() => process.ppid !== parentPid && stop("SIGHUP"), PARENT_CHECK_MS).unref();

const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const serveScript = path.join(root, "server", "cli", "serve.ts");

/**
 * Node flags of the serving processes. Node 22 keeps AsyncLocalStorage (which Next.js and Auth.js
 * use on every request) on promise hooks, a cost on every promise of every stream; its
 * AsyncContextFrame, the default from Node 24, is switched on here (measured: about a tenth of the
 * server's CPU while streaming).
 */
const CONTEXT_FRAME_FLAG = "--experimental-async-context-frame";
const SERVER_NODE_FLAGS =
  Number(process.versions.node.split(".")[0]) < 24 && process.allowedNodeEnvironmentFlags.has(CONTEXT_FRAME_FLAG)
    ? [CONTEXT_FRAME_FLAG]
    : [];

function printOutput(started: ChildProcess): void {
  createInterface({ input: started.stdout! }).on("line", (line) => {
    if (!NEXT_ADDRESS_LINE.test(line)) process.stdout.write(`${line}\n`);
  });
}

/** Runs `script` (Next.js's CLI or serve.ts) as the child; its exit code. */
function runChild(script: string, args: string[], nodeFlags: string[] = []): Promise<number> {
  const started = spawn(process.execPath, [...nodeFlags, script, ...args], {
    cwd: root,
    stdio: ["inherit", "pipe", "inherit"],
  });
  child = started;
  printOutput(started);
  return new Promise((resolve) =>
    started.on("exit", (code, signal) => {
      child = null;
      resolve(exitCodeOf(code, signal));
    }),
  );
}

/** serve.ts in `count` cluster workers on one socket; the exit code of the first to exit. */
function runWorkers(args: string[], count: number): Promise<number> {
  cluster.setupPrimary({
    exec: serveScript,
    args,
    execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS],
    cwd: root,
    silent: true,
    stdio: ["inherit", "pipe", "inherit", "ipc"],
  });
  relayBetweenWorkers(cluster); // a chat's events reach its followers on the other workers at once
  const workers = Array.from({ length: count }, () => cluster.fork());
  const processes = workers.map((worker) => worker.process);
  for (const started of processes) printOutput(started);
  child = {
    kill: (signal) => {
      for (const worker of processes) if (worker.exitCode === null) worker.kill(signal);
    },
  };
  let firstCode: number | null = null;
  let running = count;
  return new Promise((resolve) =>
    cluster.on("exit", (_worker, code, signal) => {
      firstCode ??= exitCodeOf(code, signal as NodeJS.Signals | null);
      if (!stopSignal) stop("SIGTERM"); // one worker gone on its own: the others follow
      if (--running === 0) {
        child = null;
        resolve(firstCode);
      }
    }),
  );
}

if (!(await isBuildCurrent())) {
  console.log("Building Patchbay (first start, or the sources changed)…");
  const code = await runChild(nextBin, ["build"]);
  if (code !== 0 || stopSignal) process.exit(stopSignal ? exitCodeOf(null, stopSignal) : code);
}
const workersNote = env.PATCHBAY_WORKERS > 1 ? ` (${env.PATCHBAY_WORKERS} worker processes)` : "";
console.log(`Patchbay on http://${env.HOST === "127.0.0.1" ? "localhost" : env.HOST}:${env.PORT}${workersNote}`);
const serveArgs = ["--hostname", env.HOST, "--port", String(env.PORT)];
// Several workers: the migrations are applied once here, not raced for by every worker at start.
if (env.PATCHBAY_WORKERS > 1 && env.DATABASE_URL) await applyMigrations(env.DATABASE_URL);
process.exit(
  await (env.PATCHBAY_WORKERS > 1
    ? runWorkers(serveArgs, env.PATCHBAY_WORKERS)
    : runChild(serveScript, serveArgs, SERVER_NODE_FLAGS)),
);
