// Playwright: real Chromium (Debian's /usr/bin/chromium) against the built app.
// Servers started: the harness OIDC issuer, the fake model provider, Patchbay configured with them
// and a fresh real Postgres database ("external"), a second instance of it on the same database that
// allows private connector and endpoint URLs ("external-lan", for specs that add a loopback MCP server
// as a user connector, e.g. the OAuth-protected one in e2e/support/mcp-oauth, or the fake provider
// as a user's OpenAI-compatible endpoint), a third with small per-user usage limits ("external-limits"),
// and Patchbay exactly as `npm start` runs on a fresh clone ("embedded": no DATABASE_URL, no providers, a new data folder).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

import {
  E2E_CLIENT,
  E2E_DATABASE,
  E2E_ISSUER_URL,
  E2E_METRICS_TOKEN,
  E2E_PROVIDER_NAME,
  EMBEDDED_APP_PORT,
  EMBEDDED_APP_URL,
  EXTERNAL_APP_PORT,
  EXTERNAL_APP_URL,
  FAKE_PROVIDER_PORT,
  FAKE_PROVIDER_URL,
  LAN_APP_PORT,
  LAN_APP_URL,
  LIMITS_APP_PORT,
  LIMITS_APP_URL,
  MCP_OAUTH_PORT,
} from "./e2e/support/config.ts";
import { PROVIDER_OAUTH_PORT, PROVIDER_OAUTH_URL, subscriptionAppEnv } from "./e2e/support/provider-oauth/config.ts";

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${E2E_DATABASE}` }).toString();
const embeddedDataDir = process.env.PATCHBAY_E2E_EMBEDDED_DIR ?? mkdtempSync(path.join(tmpdir(), "patchbay-e2e-"));
process.env.PATCHBAY_E2E_EMBEDDED_DIR = embeddedDataDir; // workers re-read this config: keep one folder

/** The admin's MCP servers file for the external app: server-everything and server-memory over stdio. */
const mcpServersFile = path.join(embeddedDataDir, "mcp-servers.json");
const everythingMain = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const memoryMain = path.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js");
writeFileSync(
  mcpServersFile,
  JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [everythingMain, "stdio"] },
      // One process and one memory file per user (e2e/external/mcp-memory.spec.ts).
      memory: {
        command: process.execPath,
        args: [memoryMain],
        env: { MEMORY_FILE_PATH: "${PATCHBAY_USER_DIR}/memory.jsonl" },
      },
    },
  }),
);

const noModelProviders = {
  ANTHROPIC_API_KEY: "",
  OPENAI_API_KEY: "",
  GOOGLE_GENERATIVE_AI_API_KEY: "",
  OPENAI_COMPATIBLE_BASE_URL: "",
};

/** Every model provider pointed at the fake provider server (echo mode, scriptable per test). */
const fakeModelProviders = {
  ANTHROPIC_API_KEY: "e2e-anthropic-key",
  ANTHROPIC_BASE_URL: `${FAKE_PROVIDER_URL}/anthropic/v1`,
  OPENAI_API_KEY: "e2e-openai-key",
  OPENAI_BASE_URL: `${FAKE_PROVIDER_URL}/openai/v1`,
  GOOGLE_GENERATIVE_AI_API_KEY: "e2e-google-key",
  GOOGLE_BASE_URL: `${FAKE_PROVIDER_URL}/google/v1beta`,
  OPENAI_COMPATIBLE_BASE_URL: "",
  // Subscription sign-ins at the harness OAuth server, their model calls at the fake provider.
  ...subscriptionAppEnv(FAKE_PROVIDER_URL),
};

const noProviders = {
  AUTH_GITHUB_ID: "",
  AUTH_GITHUB_SECRET: "",
  AUTH_GOOGLE_ID: "",
  AUTH_GOOGLE_SECRET: "",
  AUTH_OIDC_ISSUER: "",
  AUTH_OIDC_ID: "",
  AUTH_OIDC_SECRET: "",
};

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};

/**
 * Specs that need private connector or provider-endpoint URLs (the fake provider and the MCP servers
 * are on loopback); they run against the "external-lan" instance, which allows them.
 */
const lanSpecs = /external\/(connector-oauth|connector-long-names|provider-accounts)\.spec\.ts/;

/** The spec of per-user usage limits; it runs against the "external-limits" instance, which sets them. */
const limitsSpecs = /external\/usage-limits\.spec\.ts/;

/** The external app: the harness issuer, the fake provider, a fresh real Postgres database. */
const externalAppEnv = {
  ...noProviders,
  ...fakeModelProviders,
  MCP_SERVERS_FILE: mcpServersFile,
  DATABASE_URL: databaseUrl,
  PORT: String(EXTERNAL_APP_PORT),
  PATCHBAY_DATA_DIR: path.join(embeddedDataDir, "external"),
  AUTH_SECRET: "e2e-auth-secret-e2e-auth-secret-e2e-auth-secret",
  PATCHBAY_ENCRYPTION_KEY: "KZyS2FeesVnzzSyJKTmqwqlWvJM3ITKoPLsa5fT51FY=",
  AUTH_OIDC_ISSUER: E2E_ISSUER_URL,
  AUTH_OIDC_ID: E2E_CLIENT.clientId,
  AUTH_OIDC_SECRET: E2E_CLIENT.clientSecret,
  AUTH_OIDC_NAME: E2E_PROVIDER_NAME,
  METRICS_TOKEN: E2E_METRICS_TOKEN,
};

// e2e/external/instance-liveness.spec.ts starts more instances of the external app with this env.
process.env.PATCHBAY_E2E_EXTERNAL_APP_ENV = JSON.stringify(externalAppEnv);

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: { trace: "retain-on-failure", screenshot: "only-on-failure" },
  projects: [
    {
      name: "external-accounts",
      testMatch: /external\/accounts\.setup\.ts/,
      use: { ...chromium, baseURL: EXTERNAL_APP_URL },
    },
    {
      name: "external",
      testMatch: /external\/.*\.spec\.ts/,
      testIgnore: [lanSpecs, limitsSpecs],
      dependencies: ["external-accounts"],
      use: { ...chromium, baseURL: EXTERNAL_APP_URL },
    },
    {
      name: "external-lan",
      testMatch: lanSpecs,
      dependencies: ["external-accounts"],
      use: { ...chromium, baseURL: LAN_APP_URL },
    },
    {
      name: "external-limits",
      testMatch: limitsSpecs,
      dependencies: ["external-accounts"],
      use: { ...chromium, baseURL: LIMITS_APP_URL },
    },
    { name: "embedded", testMatch: /embedded\/.*\.spec\.ts/, use: { ...chromium, baseURL: EMBEDDED_APP_URL } },
  ],
  webServer: [
    {
      command: `tsx e2e/support/provider-oauth/main.ts ${PROVIDER_OAUTH_PORT}`,
      url: `${PROVIDER_OAUTH_URL}/_oauth/health`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: "tsx e2e/support/oidc-issuer.ts",
      url: `${E2E_ISSUER_URL}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: `tsx e2e/support/fake-provider/main.ts ${FAKE_PROVIDER_PORT}`,
      url: `${FAKE_PROVIDER_URL}/_fake/health`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      // npm start's own server (server/cli/serve.ts: the API lane before Next.js); the LAN and limits
      // apps below run a plain `next start`, where the API's route handlers answer.
      command: `tsx e2e/support/prepare-database.ts && node server/cli/serve.ts --hostname 127.0.0.1 --port ${EXTERNAL_APP_PORT}`,
      url: `${EXTERNAL_APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: externalAppEnv,
    },
    {
      command: `tsx e2e/support/mcp-oauth/main.ts ${MCP_OAUTH_PORT}`,
      url: `http://127.0.0.1:${MCP_OAUTH_PORT}/.well-known/oauth-authorization-server`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      // Started after the external app (web servers start in order): the database is ready.
      command: `next start --hostname 127.0.0.1 --port ${LAN_APP_PORT}`,
      url: `${LAN_APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        ...externalAppEnv,
        PORT: String(LAN_APP_PORT),
        PATCHBAY_DATA_DIR: path.join(embeddedDataDir, "external-lan"),
        MCP_ALLOW_PRIVATE_URLS: "true",
        PROVIDER_ALLOW_PRIVATE_URLS: "true",
      },
    },
    {
      // Per-user limits on the server's keys, small enough for a spec to reach (usage-limits.spec.ts).
      command: `next start --hostname 127.0.0.1 --port ${LIMITS_APP_PORT}`,
      url: `${LIMITS_APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        ...externalAppEnv,
        PORT: String(LIMITS_APP_PORT),
        PATCHBAY_DATA_DIR: path.join(embeddedDataDir, "external-limits"),
        USER_REQUESTS_PER_MINUTE: "3",
        USER_TOKENS_PER_DAY: "100000",
      },
    },
    {
      command: "npm start",
      url: `${EMBEDDED_APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 240_000,
      env: {
        ...noProviders,
        ...noModelProviders,
        MCP_SERVERS_FILE: "",
        DATABASE_URL: "",
        AUTH_SECRET: "",
        PORT: String(EMBEDDED_APP_PORT),
        PATCHBAY_DATA_DIR: path.join(embeddedDataDir, "embedded"),
      },
    },
  ],
});
