// A 10 s database outage in the middle of an answer, in the production build and a real browser.
// The spec starts its own Patchbay (`next start`, local account) whose DATABASE_URL points at a TCP
// proxy the spec owns in front of the shared Postgres; it cuts the proxy (every connection dropped,
// new ones refused) while the fake provider streams a 100-word answer, then restores it. Checked:
// API calls meanwhile are 503 "database unavailable" (not 401, no sign-in redirect), the open page
// says it lost the live connection and catches up by itself (no reload), and the answer keeps all
// 100 words the provider sent. The figures are printed for the README's Reliability section.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";
import pg from "pg";

import { ChatPage } from "../pages/chat-page.ts";
import { SessionsPage } from "../pages/sessions-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { E2E_PORT_OFFSET, FAKE_PROVIDER_URL, OUTAGE_APP_PORT } from "../support/config.ts";
import { CuttableProxy } from "../support/cuttable-proxy.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { trpcQuery } from "../support/trpc-http.ts";

const APP_PORT = OUTAGE_APP_PORT; // its own port: specs run two at a time
const APP_URL = `http://localhost:${APP_PORT}`;
const DATABASE = `patchbay_e2e_outage_${E2E_PORT_OFFSET}`;
const OUTAGE_MS = 10_000;
const WORDS = Array.from({ length: 100 }, (_, index) => `w${index}`);

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let proxy: CuttableProxy;
let app: ChildProcess;
let appLog = "";

test.describe.configure({ timeout: 240_000 });
test.use({ baseURL: APP_URL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${DATABASE}"`);
  const target = new URL(adminUrl);
  proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.listen();
  const databaseUrl = Object.assign(new URL(adminUrl), {
    host: `127.0.0.1:${proxy.port}`,
    pathname: `/${DATABASE}`,
  }).toString();
  app = spawn(
    process.execPath,
    [path.resolve("server/cli/serve.ts"), "--hostname", "127.0.0.1", "--port", String(APP_PORT)], // npm start's server
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        PATCHBAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), "patchbay-outage-")),
        PATCHBAY_ENCRYPTION_KEY: "KZyS2FeesVnzzSyJKTmqwqlWvJM3ITKoPLsa5fT51FY=",
        AUTH_SECRET: "e2e-outage-secret-e2e-outage-secret-e2e-outage",
        AUTH_URL: "",
        AUTH_GITHUB_ID: "",
        AUTH_GITHUB_SECRET: "",
        AUTH_GOOGLE_ID: "",
        AUTH_GOOGLE_SECRET: "",
        AUTH_OIDC_ISSUER: "",
        AUTH_OIDC_ID: "",
        AUTH_OIDC_SECRET: "",
        MCP_SERVERS_FILE: "",
        ANTHROPIC_API_KEY: "e2e-anthropic-key",
        ANTHROPIC_BASE_URL: `${FAKE_PROVIDER_URL}/anthropic/v1`,
        OPENAI_API_KEY: "",
        GOOGLE_GENERATIVE_AI_API_KEY: "",
        OPENAI_COMPATIBLE_BASE_URL: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  app.stdout!.on("data", (chunk: Buffer) => (appLog += chunk.toString()));
  app.stderr!.on("data", (chunk: Buffer) => (appLog += chunk.toString()));
  await expect(async () => {
    const response = await fetch(`${APP_URL}/sign-in`);
    expect(response.status).toBe(200);
  }).toPass({ timeout: 120_000, intervals: [500] });
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await proxy?.cut();
  await admin(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`).catch(() => undefined);
});

test("a 10 s database outage mid-answer: 503s meanwhile, the page recovers by itself, no word lost", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await new SignInPage(page).signIn("Local account", "Local user");
  const sessionId = await new SessionsPage(page).create();
  await page.goto(`/s/${sessionId}`);
  const chat = new ChatPage(page);
  await expect(chat.composer).toBeVisible();

  await scriptFakeReply(request, "anthropic", {
    forMessage: "count through the outage",
    steps: [{ type: "text", text: WORDS.join(" ") }],
    delayMs: 150,
  });
  await chat.send("count through the outage");
  await expect(chat.lastAnswer()).toContainText("w15");

  await proxy.cut();
  const cutAt = Date.now();
  const duringOutage = await trpcQuery(page.request, "session.list");
  expect(duringOutage.status).toBe(503);
  expect(duringOutage.error?.data?.appCode).toBe("unavailable:database");
  expect(duringOutage.error?.message).toBe(
    "The database is unavailable right now; Patchbay retries by itself, try again in a moment.",
  );
  const pageDuringOutage = await page.request.get(`/s/${sessionId}`, { maxRedirects: 0 });
  expect(pageDuringOutage.status()).not.toBe(307); // no redirect to sign-in
  expect(pageDuringOutage.headers().location ?? "").not.toContain("/sign-in");
  // Whether the page noticed the broken live stream (it says so, and re-opens the stream by itself).
  const notice = page.getByTestId("stream-reconnecting");
  const noticed = await notice
    .waitFor({ state: "visible", timeout: Math.max(1, cutAt + OUTAGE_MS - Date.now()) })
    .then(() => true)
    .catch(() => false);
  await page.waitForTimeout(Math.max(0, cutAt + OUTAGE_MS - Date.now()));
  await proxy.listen();
  const restoredAt = Date.now();

  // The open page, never reloaded, catches up: every word, the answer completed.
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  const caughtUpMs = Date.now() - restoredAt;
  await expect(chat.lastAnswerText()).toHaveText(WORDS.join(" "));
  await expect(page.getByText("Lost the live connection")).toHaveCount(0);

  // And what is stored says the same.
  const history = await trpcQuery(page.request, "chat.history", { sessionId });
  expect(history.status).toBe(200);
  const stored = JSON.stringify(history.data);
  for (const word of WORDS) expect(stored).toContain(`${word}`);
  console.log(
    `[outage e2e] database cut for ${restoredAt - cutAt} ms mid-answer; API during the cut: ${duringOutage.status} ` +
      `${String(duringOutage.error?.data?.appCode)}; page caught up ${caughtUpMs} ms after the database came back; ` +
      `${WORDS.length}/${WORDS.length} words kept, turn completed; broken-stream notice shown: ${noticed}`,
  );
  if (test.info().status !== "passed") console.log(appLog.slice(-4000));
});
