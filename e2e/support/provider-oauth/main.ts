// Runs the harness OAuth server as a standalone process for Playwright's webServer:
// `tsx e2e/support/provider-oauth/main.ts 3103`. Readiness is GET /_oauth/health.
import { startProviderOAuth } from "./server.ts";

const port = Number(process.argv[2] ?? 3103);
const server = await startProviderOAuth({ port });
console.log(`harness provider OAuth server on ${server.url}`);

const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
