// The production build as the HTTP bench drives it: a fresh real Postgres database, the fake
// provider in its own process, and Patchbay started the way an operator starts it
// (`node server/cli/start.ts`, which runs `next start`, with PATCHBAY_WORKERS worker processes),
// configured like the e2e "external" app but with no sign-in provider. Signed-in browsers are made
// the way Auth.js's database strategy makes them: a User row, a Session row and its cookie. The
// build must be current (`npx next build`): start.ts would otherwise build first, which the bench
// reports as a failure to start rather than waiting minutes.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { createTestDatabase, type TestDatabase } from "../e2e/support/testbeds/database.ts";
import type { RunningFake } from "./child-fake.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const START_TIMEOUT_MS = 60_000;

export type BenchBrowser = { userId: string; sessionId: string; cookie: string };

export type RunningApp = {
  url: string;
  database: TestDatabase;
  /** Process ids of the app (start.ts, patchbay-server and its workers), for CPU figures. */
  pids(): number[];
  /** What the app printed so far. */
  output(): string;
  stop(): Promise<void>;
};

/**
 * A signed-in user who has opened a new chat, as a browser has by the time it sends: the user and
 * its Auth.js session are made directly (the database strategy's rows and cookie), the chat through
 * the API the chat view uses (`session.create`, then `tools.state`, which the chat page asks for as
 * it opens and which builds the chat's first tool revision).
 */
export async function createBrowser(app: RunningApp, name: string): Promise<BenchBrowser> {
  const { db } = app.database;
  const user = await db.user.create({ data: { name, email: `${name}-${randomBytes(4).toString("hex")}@bench.test` } });
  const sessionToken = randomBytes(24).toString("hex");
  await db.session.create({ data: { sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) } });
  const cookie = `authjs.session-token=${sessionToken}`;
  const chat = await trpc<{ id: string }>(app.url, cookie, "session.create", undefined);
  await trpc(app.url, cookie, "tools.state", { sessionId: chat.id });
  return { userId: user.id, sessionId: chat.id, cookie };
}

/** One tRPC call as the chat view makes it (a mutation when `input` is undefined, else a query). */
async function trpc<T>(url: string, cookie: string, path: string, input: unknown): Promise<T> {
  const headers = { cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" };
  const response =
    input === undefined
      ? await fetch(`${url}/api/trpc/${path}`, { method: "POST", headers, body: JSON.stringify({}) })
      : await fetch(`${url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, {
          headers,
        });
  const body = (await response.json()) as { result?: { data: { json: T } } };
  if (!response.ok || !body.result) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.result.data.json;
}

function appEnv(fake: RunningFake, databaseUrl: string, port: number, workers: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    PORT: String(port),
    PATCHBAY_WORKERS: String(workers),
    PATCHBAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), "patchbay-bench-")),
    AUTH_SECRET: "bench-auth-secret-bench-auth-secret-bench-auth",
    PATCHBAY_ENCRYPTION_KEY: "KZyS2FeesVnzzSyJKTmqwqlWvJM3ITKoPLsa5fT51FY=",
    ANTHROPIC_API_KEY: "bench-anthropic-key",
    ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
    OPENAI_API_KEY: "",
    GOOGLE_GENERATIVE_AI_API_KEY: "",
    OPENAI_COMPATIBLE_BASE_URL: "",
    AUTH_GITHUB_ID: "",
    AUTH_GOOGLE_ID: "",
    AUTH_OIDC_ISSUER: "",
    NODE_ENV: "production",
  };
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Patchbay exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(`${url}/sign-in`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Patchbay did not answer at ${url} within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/** The process and every descendant of it (from /proc), so worker processes count too. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of readProcChildren()) {
    const [pid, ppid] = line;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    found.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return found;
}

function readProcChildren(): [number, number][] {
  const pairs: [number, number][] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      pairs.push([Number(name), ppid]);
    } catch {
      // the process ended meanwhile
    }
  }
  return pairs;
}

/** Starts Patchbay on a fresh database; `workers` worker processes (PATCHBAY_WORKERS). */
export async function startApp(fake: RunningFake, options: { port: number; workers: number }): Promise<RunningApp> {
  const database = await createTestDatabase({ max: 4 });
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, [path.join(ROOT, "server/cli/start.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...appEnv(fake, database.url, options.port, options.workers) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntilServing(url, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    await database.drop();
    throw error;
  }
  return {
    url,
    database,
    pids: () => processTree(child.pid!),
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      await database.drop();
    },
  };
}
