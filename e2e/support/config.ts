// Ports, accounts and URLs the e2e harness shares between playwright.config.ts and the specs.
// E2E_PORT_OFFSET (default 0) shifts every port (3100-3112) and names its own database, so two
// checkouts whose offsets are at least 20 apart can run their e2e suites on one machine at once.
export const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const port = (base: number) => base + E2E_PORT_OFFSET;

export const E2E_ISSUER_PORT = port(3101);
export const EXTERNAL_APP_PORT = port(3100);
export const EMBEDDED_APP_PORT = port(3106);
export const FAKE_PROVIDER_PORT = port(3102);
/** A second instance of the external app (same database) that allows private connector URLs. */
export const LAN_APP_PORT = port(3103);
/** The OAuth-protected MCP test server (e2e/support/mcp-oauth). */
export const MCP_OAUTH_PORT = port(3104);
/** A third instance of the external app with small per-user usage limits (usage-limits.spec.ts). */
export const LIMITS_APP_PORT = port(3110);
/** The harness OAuth server playing the vendors' sign-in endpoints (e2e/support/provider-oauth). */
export const PROVIDER_OAUTH_PORT = port(3105);
/** `npm start` started and signalled by e2e/embedded/process-lifecycle.spec.ts. */
export const SIGNALLED_APP_PORT = port(3107);
/** Two more instances of the external app, one killed by e2e/external/instance-liveness.spec.ts. */
export const LIVENESS_APP_PORTS = [port(3108), port(3109)] as const;
/** `npm start` cut off from its database by e2e/embedded/database-outage.spec.ts. */
export const OUTAGE_APP_PORT = port(3111);
/** `npm start` given a bad configuration by e2e/embedded/config-error.spec.ts. */
export const CONFIG_ERROR_APP_PORT = port(3112);

export const EXTERNAL_APP_URL = `http://localhost:${EXTERNAL_APP_PORT}`;
export const EMBEDDED_APP_URL = `http://localhost:${EMBEDDED_APP_PORT}`;
export const E2E_ISSUER_URL = `http://127.0.0.1:${E2E_ISSUER_PORT}`;
export const FAKE_PROVIDER_URL = `http://127.0.0.1:${FAKE_PROVIDER_PORT}`;
export const LAN_APP_URL = `http://localhost:${LAN_APP_PORT}`;
export const LIMITS_APP_URL = `http://localhost:${LIMITS_APP_PORT}`;
export const MCP_OAUTH_URL = `http://127.0.0.1:${MCP_OAUTH_PORT}/mcp`;

export const E2E_CLIENT = { clientId: "patchbay-e2e", clientSecret: "e2e-client-secret-not-for-production" };
export const E2E_PROVIDER_NAME = "Test SSO";
/** The bearer token of GET /metrics on the external app (METRICS_TOKEN). */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-not-for-production";

export const ALICE = { id: "alice", email: "alice@example.test", name: "Alice Example" };
export const BOB = { id: "bob", email: "bob@example.test", name: "Bob Example" };
/** Users only the usage-limits spec signs in as: their allowance is theirs alone. */
export const CAROL = { id: "carol", email: "carol@example.test", name: "Carol Example" };
export const DAN = { id: "dan", email: "dan@example.test", name: "Dan Example" };
/** The sub-agents spec's user: a sub-agent persona is a tool in every chat of its owner, so only hers. */
export const SAGE = { id: "sage", email: "sage@example.test", name: "Sage Example" };

export const E2E_DATABASE = E2E_PORT_OFFSET === 0 ? "patchbay_e2e" : `patchbay_e2e_${E2E_PORT_OFFSET}`;
