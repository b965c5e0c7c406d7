// Runs the fake provider as a standalone process for Playwright's webServer, in echo mode:
// `tsx e2e/support/fake-provider/main.ts 3102` (port from argv, default 3102). Tests script it over
// HTTP (POST /_fake/script, GET /_fake/requests, POST /_fake/clear); readiness is GET /_fake/health.
import { startFakeProvider } from "./server.ts";

const port = Number(process.argv[2] ?? 3102);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`usage: tsx e2e/support/fake-provider/main.ts <port>  (got ${process.argv[2]})`);
  process.exit(2);
}

// One line per model request in the Playwright output ([WebServer]), to read a failed run by.
const provider = await startFakeProvider({ port, defaultReply: "echo", log: (line) => console.log(line) });
console.log(`fake provider (echo mode) on ${provider.url}`);
for (const [name, baseUrl] of Object.entries(provider.baseUrls)) console.log(`  ${name}: ${baseUrl}`);

const stop = () => void provider.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
