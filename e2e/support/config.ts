// Ports, accounts and URLs the e2e harness shares between playwright.config.ts and the specs.
export const E2E_ISSUER_PORT = 3101;
export const EXTERNAL_APP_PORT = 3100;
export const EMBEDDED_APP_PORT = 3200;
export const FAKE_PROVIDER_PORT = 3102;
/** A second instance of the external app (same database) that allows private connector URLs. */
export const LAN_APP_PORT = 3103;
/** The OAuth-protected MCP test server (e2e/support/mcp-oauth). */
export const MCP_OAUTH_PORT = 3104;

export const EXTERNAL_APP_URL = `http://localhost:${EXTERNAL_APP_PORT}`;
export const EMBEDDED_APP_URL = `http://localhost:${EMBEDDED_APP_PORT}`;
export const E2E_ISSUER_URL = `http://127.0.0.1:${E2E_ISSUER_PORT}`;
export const FAKE_PROVIDER_URL = `http://127.0.0.1:${FAKE_PROVIDER_PORT}`;
export const LAN_APP_URL = `http://localhost:${LAN_APP_PORT}`;
export const MCP_OAUTH_URL = `http://127.0.0.1:${MCP_OAUTH_PORT}/mcp`;

export const E2E_CLIENT = { clientId: "patchbay-e2e", clientSecret: "e2e-client-secret-not-for-production" };
export const E2E_PROVIDER_NAME = "Test SSO";

export const ALICE = { id: "alice", email: "alice@example.test", name: "Alice Example" };
export const BOB = { id: "bob", email: "bob@example.test", name: "Bob Example" };

export const E2E_DATABASE = "patchbay_e2e";
