// The `browser` section of `npm run bench`: runs the browser bench (bench/browser.bench.ts, through
// `playwright test -c bench/browser.config.ts`) in a child process and lets it print its figures
// beside their goals. It drives the production build, so `npm run build` must have run; the e2e
// servers start as for `npm run test:e2e` (E2E_PORT_OFFSET shifts their ports). A failed run is
// reported, never thrown: the other sections still print.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export async function runBrowserBench(): Promise<void> {
  console.log("\nbrowser: chat page figures (Playwright + Performance API, production build)");
  const cli = path.join(root, "node_modules", "@playwright", "test", "cli.js");
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [cli, "test", "-c", "bench/browser.config.ts"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", resolve);
    child.on("error", () => resolve(null));
  });
  if (code !== 0) console.log(`  browser bench did not finish (exit ${code}); was \`npm run build\` run first?`);
}
