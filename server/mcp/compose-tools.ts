// The tool set of one registry revision, pure: built-in tools (minus those switched off), the personas
// offered as sub-agents (sub-agent-tools.ts, when given), then each switched-on connector's
// tools in binding and list order, minus tools switched off, tools whose policy (the tool's own
// override, else the connector's) is `deny`, and tools outside the persona's allowlist; each with the
// name the model is shown (tool-names.ts: a pure function of the canonical names, so stable across
// revisions and independent of connection order). Connectors whose names clash are never merged:
// the losers are left out (name-clashes.ts) and the Tools panel says why. A collision of exposed
// names that cannot be resolved is an error for the user, never a silently dropped tool.
import { AppError } from "../errors.ts";
import { isAllowedByPersona, parseToolPolicies } from "../core/tool-policy.ts";
import { exposeToolNames, isToolNameCollisionError } from "../core/tool-names.ts";
import { BUILTIN_CONNECTOR, PERSONA_CONNECTOR } from "./connector-names.ts";
import { findNameClashes } from "./name-clashes.ts";
import type { RegistryTool } from "./registry-tool.ts";
import type { Binding } from "./revision-store.ts";
import type { ListSource } from "./snapshot-manifest.ts";

type ToolEntry = Omit<RegistryTool, "exposedName">;
type ToolSwitches = Pick<Binding, "policy" | "toolPolicies"> & { disabledTools: readonly string[] };

/** A sub-agent is on while its persona says so (the persona's setting is its switch); it runs without asking. */
const SUB_AGENT_SWITCHES: ToolSwitches = { disabledTools: [], policy: "allow", toolPolicies: {} };

/** `disabledBuiltins`: tool names of the built-ins switched off in the chat (they are always `allow`). */
export function composeTools(
  builtins: ListSource,
  bindings: readonly Binding[],
  lists: ReadonlyMap<string, ListSource>,
  allowlist: readonly string[] | null,
  disabledBuiltins: readonly string[] = [],
  subAgents?: ListSource,
): RegistryTool[] {
  const entries: ToolEntry[] = [];
  const builtinSwitches: ToolSwitches = { disabledTools: disabledBuiltins, policy: "allow", toolPolicies: {} };
  addSelectedTools(entries, BUILTIN_CONNECTOR, builtins, builtinSwitches, allowlist);
  if (subAgents) addSelectedTools(entries, PERSONA_CONNECTOR, subAgents, SUB_AGENT_SWITCHES, allowlist);
  const clashes = findNameClashes(bindings.filter((binding) => binding.enabled));
  for (const binding of bindings) {
    const source = binding.enabled && !clashes.has(binding.connectorId) ? lists.get(binding.connectorId) : undefined;
    if (source) addSelectedTools(entries, binding.connectorId, source, binding, allowlist);
  }
  let names: Map<string, string>;
  try {
    names = exposeToolNames(entries.map((entry) => entry.canonicalName));
  } catch (error) {
    if (isToolNameCollisionError(error)) throw new AppError("conflict:tools", error.message, { cause: error });
    throw error;
  }
  return entries.map((entry) => ({ ...entry, exposedName: names.get(entry.canonicalName)! }));
}

/** Appends the connector's tools that are on, not denied and allowed by the persona, with their policy. */
function addSelectedTools(
  entries: ToolEntry[],
  connectorId: string,
  source: ListSource,
  switches: ToolSwitches,
  allowlist: readonly string[] | null,
): void {
  const disabled = new Set(switches.disabledTools);
  const overrides = parseToolPolicies(switches.toolPolicies);
  for (const { name, description, inputSchema, readOnly } of source.list.value) {
    const policy = Object.hasOwn(overrides, name) ? overrides[name]! : switches.policy;
    const canonicalName = `${source.name}.${name}`;
    if (disabled.has(name) || policy === "deny" || !isAllowedByPersona(allowlist, canonicalName)) continue;
    const entry: ToolEntry = { canonicalName, description, inputSchema, connectorId, toolName: name, policy };
    if (readOnly === true) entry.readOnly = true;
    entries.push(entry);
  }
}
