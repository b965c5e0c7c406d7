// Checks the production build holds none of the test beds: `npm run check:bundle` after `npm run
// build`. It reads every file under .next/server and fails when one names a module of e2e/ (the
// fakes, fixtures and test beds: module ids like `[project]/e2e/support/...`) or one of the test
// beds' own exports. It also fails when the bundle does not name the app's own server modules, since
// then it could not tell either way (a build in another layout, or no build at all).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const bundle = path.join(root, ".next", "server");

/** What only a test bed holds: paths into e2e/, and the names the test beds export. */
const forbidden = [
  "e2e/support",
  "e2e/fixtures",
  "testbeds/",
  "InMemoryMcpTokenStore",
  "createPolicyTestbed",
  "createTestDatabase",
  "startFakeProvider",
  "startOAuthMcpServer",
  "startProviderOAuth",
  "fixtureStdioConfig",
];
/** What the bundle must hold for the check to mean anything: the app's own server modules. */
const expected = "server/session/manager";

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

let files: string[];
try {
  files = filesUnder(bundle);
} catch {
  console.error(`check:bundle: ${path.relative(root, bundle)} cannot be read; run \`npm run build\` first.`);
  process.exit(1);
}
const findings: string[] = [];
let isAppSeen = false;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  if (text.includes(expected)) isAppSeen = true;
  for (const marker of forbidden) {
    if (text.includes(marker)) findings.push(`${path.relative(root, file)}: ${marker}`);
  }
}
if (!isAppSeen) {
  console.error(`check:bundle: no file under .next/server names ${expected}; the check cannot tell.`);
  process.exit(1);
}
if (findings.length > 0) {
  console.error(`check:bundle: the production build holds test beds:\n  ${findings.join("\n  ")}`);
  process.exit(1);
}
console.log(`check:bundle: ${files.length} files under .next/server, none holds a test bed.`);
