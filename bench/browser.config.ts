// Playwright config of the browser bench (`npm run bench:browser`): the e2e config's servers and
// accounts, one project running bench/browser.bench.ts and bench/apply-now.bench.ts against the
// "external-lan" instance (it allows the loopback MCP server the bench starts), one worker, no
// retries, the list reporter, and no Playwright tracing in the page.
import path from "node:path";

import { defineConfig } from "@playwright/test";

import e2e from "../playwright.config.ts";
import { LAN_APP_URL } from "../e2e/support/config.ts";

const root = path.resolve(import.meta.dirname, "..");
const webServers = [e2e.webServer ?? []].flat().map((server) => ({ ...server, cwd: root }));
const chromium = e2e.projects!.find((project) => project.name === "external")!.use!;

export default defineConfig({
  ...e2e,
  testDir: ".",
  outputDir: path.join(root, "test-results", "bench"),
  webServer: webServers,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  projects: [
    { ...e2e.projects!.find((project) => project.name === "external-accounts")!, testDir: "../e2e" },
    {
      name: "bench",
      testDir: ".",
      testMatch: /bench\/(browser|apply-now)\.bench\.ts/,
      dependencies: ["external-accounts"],
      // No Playwright trace, screenshots or video here: a trace's screencast and DOM snapshots run in
      // the page and more than doubled the main-thread figures (busy while streaming 25-31 % with
      // them, 12-14 % without), which no user's browser pays.
      use: { ...chromium, baseURL: LAN_APP_URL, trace: "off", screenshot: "off", video: "off" },
    },
  ],
});
