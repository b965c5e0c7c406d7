// The e2e harness' OIDC issuer: a real oidc-provider issuer with its accounts (Alice, Bob, and Carol
// and Dan for the usage-limits spec, Sage for the sub-agents spec) that the
// app under test is configured to use as its generic OIDC provider. Runs until killed.
import { startLocalIssuer } from "../../server/auth/local-issuer.ts";
import {
  ALICE,
  BOB,
  CAROL,
  DAN,
  SAGE,
  E2E_CLIENT,
  E2E_ISSUER_PORT,
  EXTERNAL_APP_URL,
  LAN_APP_URL,
  LIMITS_APP_URL,
} from "./config.ts";

const issuer = await startLocalIssuer({
  port: E2E_ISSUER_PORT,
  accounts: [ALICE, BOB, CAROL, DAN, SAGE],
  clients: [
    {
      ...E2E_CLIENT,
      redirectUris: [EXTERNAL_APP_URL, LAN_APP_URL, LIMITS_APP_URL].map((app) => `${app}/api/auth/callback/oidc`),
    },
  ],
  title: "Test SSO",
});
console.log(`e2e OIDC issuer on ${issuer.issuer}`);

const stop = () => void issuer.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
