// `npm start` as a process manager runs it: SIGTERM (and SIGINT, SIGHUP) to the npm process alone
// must end the server and every stdio MCP child, with nothing new spawned after the signal. The app
// gets the admin's server-everything over stdio through a wrapper that logs each start (pid and
// time), and a chat switches it on so a child is running when the signal comes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { ChatPage } from "../pages/chat-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { isServing, startAppProcess, waitForHttp } from "../support/app-process.ts";
import { SIGNALLED_APP_PORT } from "../support/config.ts";

const APP_URL = `http://localhost:${SIGNALLED_APP_PORT}`;
/** As on a fresh clone: no sign-in provider (the local account), no model provider. */
const NO_PROVIDERS = Object.fromEntries(
  ["AUTH_GITHUB_ID", "AUTH_GOOGLE_ID", "AUTH_OIDC_ISSUER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"].map((key) => [
    key,
    "",
  ]),
);
const everything = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** An admin MCP file whose one stdio server appends "<pid> <ms since epoch>" to `spawnLog` as it starts. */
function loggedMcpServersFile(dir: string, spawnLog: string): string {
  const file = path.join(dir, "mcp-servers.json");
  const script = 'echo "$$ $(date +%s%3N)" >> "$0"; exec "$@"';
  const server = { command: "/bin/sh", args: ["-c", script, spawnLog, process.execPath, everything, "stdio"] };
  writeFileSync(file, JSON.stringify({ mcpServers: { everything: server } }));
  return file;
}

function spawns(spawnLog: string): { pid: number; at: number }[] {
  const text = (() => {
    try {
      return readFileSync(spawnLog, "utf8");
    } catch {
      return "";
    }
  })();
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split(" ").map(Number))
    .map(([pid, at]) => ({ pid: pid!, at: at! }));
}

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  test(`${signal} to the npm start process leaves nothing running and spawns nothing`, async ({ browser }) => {
    test.setTimeout(180_000);
    const dir = mkdtempSync(path.join(tmpdir(), "patchbay-signals-"));
    const spawnLog = path.join(dir, "spawned");
    const app = startAppProcess("npm", ["start"], {
      PORT: String(SIGNALLED_APP_PORT),
      PATCHBAY_DATA_DIR: path.join(dir, "data"),
      MCP_SERVERS_FILE: loggedMcpServersFile(dir, spawnLog),
      DATABASE_URL: "",
      AUTH_SECRET: "",
      ...NO_PROVIDERS,
    });
    try {
      await waitForHttp(`${APP_URL}/sign-in`, 120_000);
      const context = await browser.newContext({ baseURL: APP_URL });
      const page = await context.newPage();
      await page.goto("/");
      await new SignInPage(page).signIn("Local account", "Local user");
      const chat = new ChatPage(page);
      await chat.openNewChat();
      await chat.switchConnector("everything", true);
      await expect.poll(() => spawns(spawnLog).length, { timeout: 30_000 }).toBeGreaterThan(0);
      await context.close();
      const before = app.groupProcesses();
      expect(before.some((p) => p.command.startsWith("patchbay-server"))).toBe(true);
      expect(before.some((p) => spawns(spawnLog).some((s) => s.pid === p.pid))).toBe(true); // a live MCP child

      const signalledAt = Date.now();
      process.kill(app.child.pid!, signal); // the npm process only, as a process manager does
      const exit = await app.exited;

      expect(exit.code !== null || exit.signal !== null).toBe(true);
      await expect.poll(() => app.groupProcesses(), { timeout: 10_000 }).toEqual([]);
      expect(await isServing(`${APP_URL}/sign-in`)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a late respawn would show by now
      expect(spawns(spawnLog).filter((s) => s.at >= signalledAt)).toEqual([]);
    } finally {
      app.stop();
      await test.info().attach("npm start output", { body: app.output(), contentType: "text/plain" });
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
}
