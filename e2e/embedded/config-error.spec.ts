// A configuration error stops the production server at start-up with its message and a non-zero
// exit, instead of a server that answers every request with a 500: `next start` (the built app) and
// `npm start`'s own server (server/cli/serve.ts) with DATABASE_URL set and no
// PATCHBAY_ENCRYPTION_KEY in production.
import { spawn } from "node:child_process";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { CONFIG_ERROR_APP_PORT } from "../support/config.ts";

const PORT = CONFIG_ERROR_APP_PORT; // its own port: specs run two at a time

const SERVERS = {
  "next start": [path.resolve("node_modules/next/dist/bin/next"), "start"],
  "npm start's server (serve.ts)": [path.resolve("server/cli/serve.ts")],
};

for (const [name, command] of Object.entries(SERVERS)) {
  test(`${name} with a configuration error exits 1 with the message, serving nothing`, async () => {
    await expectConfigErrorExit(command);
  });
}

async function expectConfigErrorExit(command: string[]): Promise<void> {
  test.setTimeout(90_000);
  const child = spawn(process.execPath, [...command, "--hostname", "127.0.0.1", "--port", String(PORT)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/patchbay_never_created",
      PATCHBAY_ENCRYPTION_KEY: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 60_000);
    child.on("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  expect(code, output).toBe(1);
  expect(output).toContain("Invalid Patchbay configuration:");
  expect(output).toContain("PATCHBAY_ENCRYPTION_KEY: is required in production with DATABASE_URL");
  await expect(fetch(`http://127.0.0.1:${PORT}/sign-in`)).rejects.toThrow(); // nothing listens
}
