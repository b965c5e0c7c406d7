// The MCP client under test for `@modelcontextprotocol/conformance` (client scenarios): the runner
// starts a test server per scenario and runs `tsx e2e/support/mcp-oauth/conformance-client.ts <server-url>`
// with MCP_CONFORMANCE_SCENARIO (and, for some, MCP_CONFORMANCE_CONTEXT) set. It goes through
// Patchbay's own ConnectionPool / Streamable HTTP transport and McpOAuthProvider (in-memory store,
// ephemeral sealing key), so the scenarios exercise the code a chat turn uses. Every scenario gets
// the same behaviour: connect, list tools, call each tool once with arguments made up from its
// schema. When the pool reports that authorization is needed, the recorded authorization URL is
// followed headlessly (the test authorization servers approve at once and redirect with a code),
// then the callback step (completeMcpAuthorization) runs and the operation is retried.
// Exit code 0 when every step succeeded; 1 (with the reason on stderr) otherwise.
import { randomBytes } from "node:crypto";

import { z } from "zod";

import { openWithKey, sealWithKey } from "../../../server/crypto/secrets.ts";
import { type JsonValue } from "../../../server/core/canonical.ts";
import { ToolError } from "../../../server/core/tool-source.ts";
import { ConnectionPool } from "../../../server/mcp/connection-pool.ts";
import { type McpTool } from "../../../server/mcp/connection-types.ts";
import { completeMcpAuthorization, McpOAuthProvider } from "../../../server/mcp/oauth-provider.ts";
import { InMemoryMcpTokenStore } from "../testbeds/in-memory-token-store.ts";
import { type ConnectorConfig } from "../../../server/mcp/transports.ts";

const KEY = "conformance";
const STEP_TIMEOUT_MS = 10_000;
/** Authorizations per operation; a server that keeps refusing (auth/scope-retry-limit) must not loop us. */
const MAX_AUTHORIZATIONS = 3;
const BASE_URL = "http://localhost:3000";
/** The document URL auth/basic-cimd expects a client to present (its server does not fetch it). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const contextSchema = z.object({ client_id: z.string().optional(), client_secret: z.string().optional() }).loose();

async function main(serverUrl: string | undefined): Promise<void> {
  if (!serverUrl) throw new Error("Usage: tsx e2e/support/mcp-oauth/conformance-client.ts <server-url>");
  const provider = await createProvider();
  const pool = new ConnectionPool({ authProvider: () => provider, connectTimeoutMs: STEP_TIMEOUT_MS });
  const config: ConnectorConfig = { kind: "streamable-http", url: serverUrl, headers: {} };
  try {
    const tools = await withAuthorization(provider, serverUrl, () =>
      pool.listTools(KEY, config, AbortSignal.timeout(STEP_TIMEOUT_MS)),
    );
    for (const tool of tools) {
      const result = await withAuthorization(provider, serverUrl, () =>
        pool.callTool(KEY, config, tool.name, sampleArguments(tool), {
          signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
          timeoutMs: STEP_TIMEOUT_MS,
        }),
      );
      process.stdout.write(`${tool.name}: ${JSON.stringify(result)}\n`);
    }
  } finally {
    await pool.closeAll();
  }
}

/** A provider for one made-up user, sealing with a key that lives as long as the process. */
async function createProvider(): Promise<McpOAuthProvider> {
  const key = randomBytes(32);
  const provider = new McpOAuthProvider({
    owner: { userId: "conformance-user", connectorId: KEY },
    store: new InMemoryMcpTokenStore(),
    baseUrl: BASE_URL,
    clientMetadataUrl: CLIENT_METADATA_URL,
    sealer: {
      seal: (plaintext) => Promise.resolve(sealWithKey(key, plaintext)),
      open: (sealed) => Promise.resolve(openWithKey(key, sealed)),
    },
  });
  // auth/pre-registration: the client is registered out of band; the runner hands us its credentials.
  const context = contextSchema.parse(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}"));
  if (context.client_id) {
    await provider.saveClientInformation({
      client_id: context.client_id,
      ...(context.client_secret && { client_secret: context.client_secret }),
      redirect_uris: [provider.redirectUrl],
    });
  }
  return provider;
}

/** Runs `operation`; when it failed for want of authorization, authorizes headlessly and retries. */
async function withAuthorization<T>(
  provider: McpOAuthProvider,
  serverUrl: string,
  operation: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const authorizationUrl = await provider.pendingAuthorizationUrl();
      if (!(error instanceof ToolError) || !authorizationUrl || attempt >= MAX_AUTHORIZATIONS) throw error;
      await authorizeHeadlessly(provider, serverUrl, authorizationUrl);
    }
  }
}

/** Plays the user's browser: opens the authorization URL and hands the redirect's code to the callback step. */
async function authorizeHeadlessly(
  provider: McpOAuthProvider,
  serverUrl: string,
  authorizationUrl: string,
): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`The authorization server answered ${response.status} without a redirect.`);
  const callback = new URL(location, authorizationUrl);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`The authorization redirect carried no code: ${callback.searchParams.toString()}`);
  await completeMcpAuthorization({ provider, serverUrl, code, state: callback.searchParams.get("state") });
}

const propertySchema = z.object({ type: z.unknown().optional() }).loose();

/** Plausible arguments for a tool: one value of the declared type for each property. */
function sampleArguments(tool: McpTool): Record<string, JsonValue> {
  const properties = z
    .record(z.string(), propertySchema)
    .catch({})
    .parse(tool.inputSchema.properties ?? {});
  return Object.fromEntries(
    Object.entries(properties).map(([name, property], index) => [name, sampleValue(property.type, index)]),
  );
}

function sampleValue(type: unknown, index: number): JsonValue {
  const first = Array.isArray(type) ? (type as unknown[])[0] : type;
  switch (first) {
    case "number":
    case "integer":
      return index + 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    case "null":
      return null;
    default:
      return "test";
  }
}

main(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `conformance-client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
