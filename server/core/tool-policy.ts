// The tool policy rules, pure: what a chat may do with each tool. A connector bound to a chat has a
// policy (`allow` runs calls, `ask` waits for the user's approval of each call, `deny` hides the
// tools), and each of its tools may override it. A persona's allowlist narrows the tool set further
// (built-in tools included, by canonical name). The registry applies these when it builds a
// snapshot, so a denied or unlisted tool is never shown to a model.
import { z } from "zod";

export const toolPolicySchema = z.enum(["allow", "ask", "deny"]);
export type ToolPolicy = z.infer<typeof toolPolicySchema>;
/** The policy of a tool that is in a snapshot (denied tools are not). */
export type ExposedPolicy = Exclude<ToolPolicy, "deny">;

export const DEFAULT_POLICY: ToolPolicy = "allow";

const MAX_ENTRY_LENGTH = 300;
const SERVER_GLOB = /^[a-zA-Z0-9_-]{1,40}\.\*$/;

/**
 * One allowlist entry: `*` (every tool), `server.*` (every tool of a server, `builtin.*` included)
 * or a canonical tool name `server.tool` (server names are connector names: letters, digits, - _).
 */
export const allowlistEntrySchema = z
  .string()
  .trim()
  .max(MAX_ENTRY_LENGTH)
  .regex(/^(\*|[a-zA-Z0-9_-]{1,40}\..+)$/, { error: "must be `*`, `server.*` or a tool name `server.tool`" });

/** Stored per-tool overrides, read leniently: anything that is not a known policy is ignored. */
export function parseToolPolicies(value: unknown): Record<string, ToolPolicy> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const policies: Record<string, ToolPolicy> = {};
  for (const [toolName, policy] of Object.entries(value)) {
    const parsed = toolPolicySchema.safeParse(policy);
    if (parsed.success) policies[toolName] = parsed.data;
  }
  return policies;
}

/** A tool's own policy when it has one, else its connector's. */
export function effectivePolicy(binding: { policy: ToolPolicy; toolPolicies: unknown }, toolName: string): ToolPolicy {
  return parseToolPolicies(binding.toolPolicies)[toolName] ?? binding.policy;
}

/** Whether a persona's allowlist admits a tool; `null` (no persona) admits every tool. */
export function isAllowedByPersona(allowlist: readonly string[] | null, canonicalName: string): boolean {
  if (allowlist === null) return true;
  return allowlist.some((entry) => {
    if (entry === "*") return true;
    if (SERVER_GLOB.test(entry)) return canonicalName.startsWith(entry.slice(0, -1));
    return entry === canonicalName;
  });
}
