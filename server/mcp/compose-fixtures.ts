// Test support for the unit tests of composing a revision (compose-tools.test.ts,
// revision-composer.test.ts): tool lists as the registry hashes them, the built-ins' list, and a
// session's binding of a connector (on, allowed, unchanged row `<id>-v1` unless patched). Tests only.
import type { McpTool } from "./connection-types.ts";
import type { Binding } from "./revision-store.ts";
import type { ListSource } from "./snapshot-manifest.ts";
import { hashToolList } from "./tool-lists.ts";

/** A hashed tool list named `name` with one object-schema tool per name. */
export const source = (name: string, tools: string[]): ListSource => ({
  name,
  list: hashToolList(
    tools.map((tool): McpTool => ({ name: tool, description: tool, inputSchema: { type: "object" } })),
  ),
});

export const builtins = source("builtin", ["current_time"]);

export const binding = (connectorId: string, patch: Partial<Binding> = {}): Binding => ({
  connectorId,
  name: connectorId,
  source: "user",
  enabled: true,
  disabledTools: [],
  policy: "allow",
  toolPolicies: {},
  fingerprint: `${connectorId}-v1`,
  ...patch,
});
