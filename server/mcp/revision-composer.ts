// What a registry revision is made of, from the session's state (revision-store.ts) and the tool lists
// of its switched-on connectors (connector-lists.ts): its tools (compose-tools.ts), their per-
// connector selections and the manifest of their hashes (snapshot-manifest.ts), and the lists it
// refers to. A pure function of those inputs, so each session's last composition is kept with the key
// of its inputs (the bindings, persona allowlist, switched-off built-ins, sub-agent personas, and each
// list's connector, name and content hash): a rebuild of unchanged inputs (a list_changed that changed
// nothing, a health rebuild) gets it back without composing, naming or hashing again. Kept per
// session, never shared across sessions; callers must not mutate what they get.
import type { McpTool } from "./connection-types.ts";
import { composeTools } from "./compose-tools.ts";
import { BUILTIN_CONNECTOR, PERSONA_CONNECTOR } from "./connector-names.ts";
import type { RegistryTool } from "./registry-tool.ts";
import type { RegistryState } from "./revision-store.ts";
import {
  buildManifest,
  buildSelections,
  type ListSource,
  type Selection,
  type SnapshotManifest,
} from "./snapshot-manifest.ts";
import { subAgentToolList } from "./sub-agent-tools.ts";
import type { Hashed } from "./tool-lists.ts";

const REMEMBERED_SESSIONS = 1_000;

export type Composed = {
  tools: RegistryTool[];
  /** Every list the selections refer to (built-ins and sub-agents included). */
  sources: Hashed<readonly McpTool[]>[];
  selections: Hashed<Selection>[];
  manifest: SnapshotManifest;
  manifestJson: string;
};

export class RevisionComposer {
  private readonly last = new Map<string, { key: string; composed: Composed }>();

  constructor(private readonly builtinList: ListSource) {}

  /** The revision these inputs make; `lists`: the switched-on connectors' lists by connector id. */
  compose(sessionId: string, state: RegistryState, lists: ReadonlyMap<string, ListSource>): Composed {
    const key = inputKey(state, lists);
    const known = this.last.get(sessionId);
    if (known?.key === key) return known.composed;
    const composed = this.composeAnew(state, lists);
    this.last.delete(sessionId);
    if (this.last.size >= REMEMBERED_SESSIONS) this.last.delete(this.last.keys().next().value!);
    this.last.set(sessionId, { key, composed });
    return composed;
  }

  private composeAnew(state: RegistryState, connectorLists: ReadonlyMap<string, ListSource>): Composed {
    const { bindings, allowlist, disabledBuiltins, subAgents: personas } = state;
    const subAgents = personas.length > 0 ? subAgentToolList(personas) : undefined; // none: nothing stored
    const tools = composeTools(this.builtinList, bindings, connectorLists, allowlist, disabledBuiltins, subAgents);
    const lists = new Map(connectorLists);
    lists.set(BUILTIN_CONNECTOR, this.builtinList);
    if (subAgents) lists.set(PERSONA_CONNECTOR, subAgents);
    const selections = buildSelections(tools, lists);
    const manifest = buildManifest(selections);
    const sources = [...lists.values()].map((source) => source.list);
    return { tools, sources, selections, manifest, manifestJson: JSON.stringify(manifest) };
  }
}

/** Everything a composition depends on besides the built-ins (fixed per registry), as one string. */
function inputKey(state: RegistryState, lists: ReadonlyMap<string, ListSource>): string {
  const { bindings, allowlist, disabledBuiltins, subAgents } = state;
  const sources = [...lists]
    .map(([connectorId, { name, list }]) => [connectorId, name, list.hash])
    .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  return JSON.stringify([bindings, allowlist, disabledBuiltins, subAgents, sources]);
}
