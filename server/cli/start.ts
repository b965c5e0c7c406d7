// `npm start`: builds the app if the build is missing or older than the sources, then serves it on
// HOST:PORT (default 127.0.0.1:3000). With no DATABASE_URL and no sign-in provider configured this
// is Patchbay on embedded defaults: the embedded Postgres in PATCHBAY_DATA_DIR and the local account.
import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

import { env } from "../env.ts";

const root = path.resolve(import.meta.dirname, "../..");
const sourceRoots = ["app", "components", "server", "prisma", "package.json", "next.config.mjs", "postcss.config.mjs"];

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

function run(args: string[]): Promise<number> {
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [nextBin, ...args], { cwd: root, stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.once("SIGINT", forward);
  process.once("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

if (!(await isBuildCurrent())) {
  console.log("Building Patchbay (first start, or the sources changed)…");
  const code = await run(["build"]);
  if (code !== 0) process.exit(code);
}
console.log(`Patchbay on http://${env.HOST === "127.0.0.1" ? "localhost" : env.HOST}:${env.PORT}`);
process.exit(await run(["start", "--hostname", env.HOST, "--port", String(env.PORT)]));
