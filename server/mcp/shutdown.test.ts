// Clean shutdown with real processes: a child process runs a connection pool with stdio MCP servers
// (server-everything and our fixture, each busy with a long call, so neither would exit just because
// its stdin closed), gets SIGTERM, and no MCP server process may be left running afterwards, also
// when another SIGTERM handler ends the process before the pool has closed (Next.js exits as soon as
// its HTTP server is closed). Without the shutdown both would run on, orphaned, for a minute.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";

import { describe, expect, it, onTestFinished, vi } from "vitest";

import { isAlive } from "../../e2e/support/mcp-fixture/launch.ts";

const HARNESS = path.join(import.meta.dirname, "../../e2e/support/testbeds/shutdown-harness.ts");

async function startHarness(flags: string[]): Promise<{ child: ChildProcess; pids: number[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", HARNESS, ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const line = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("\n")) resolve(output.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`The harness exited with ${code} before it was ready`)));
  });
  const { pids } = JSON.parse(await line) as { pids: number[] };
  onTestFinished(() => {
    for (const pid of [child.pid!, ...pids]) if (isAlive(pid)) process.kill(pid, "SIGKILL"); // never leak one
  });
  return { child, pids };
}

describe("graceful shutdown", { timeout: 30_000 }, () => {
  it("closes the MCP pool on SIGTERM, so no stdio server outlives the app, and exits with 143", async () => {
    const { child, pids } = await startHarness([]);
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);

    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];

    expect(code).toBe(143);
    await vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 5_000, interval: 100 });
  });

  it("ends the stdio servers even when another SIGTERM handler exits the process first", async () => {
    const { child, pids } = await startHarness(["--exit-first"]);
    expect(pids.every(isAlive)).toBe(true);

    child.kill("SIGTERM");
    await once(child, "exit");

    await vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 5_000, interval: 100 });
  });
});
