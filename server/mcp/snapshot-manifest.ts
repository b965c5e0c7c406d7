// How a registry revision is stored. Its ToolSnapshot row holds a manifest: the hashes, in snapshot
// order, of one selection per connector that shows tools at that revision. A selection names the
// connector (id and server name), the hash of its tool list (tool-lists.ts) and, in list order, the
// tools that are on, each with the exact name the model is shown and its policy: together the
// selections are the revision's reverse map (exposed name -> connector + tool). Selections and lists
// are content-addressed, so a revision that changes one connector's switches stores one new
// selection and a manifest of a few hundred bytes. Built-in tools are a connector named `builtin`.
// Revisions stored before manifests hold the whole tool array instead (revision-store.ts).
import { z } from "zod";

import type { McpTool } from "./connection-types.ts";
import type { RegistryTool } from "./registry-tool.ts";
import { hashJson, type Hashed } from "./tool-lists.ts";

export const MANIFEST_VERSION = 2;

export const selectionSchema = z.object({
  connectorId: z.string(),
  name: z.string(),
  list: z.string(),
  tools: z.array(z.object({ name: z.string(), exposedName: z.string(), policy: z.enum(["allow", "ask"]) })),
});
export type Selection = z.infer<typeof selectionSchema>;

export const snapshotManifestSchema = z.object({
  v: z.literal(MANIFEST_VERSION),
  selections: z.array(z.string()),
});
export type SnapshotManifest = z.infer<typeof snapshotManifestSchema>;

/** Where a connector's tools come from: its server name and its hashed tool list. */
export type ListSource = { name: string; list: Hashed<readonly McpTool[]> };

/**
 * The hashed selections of a composed tool array. Tools of one connector are contiguous in it (the
 * registry composes them connector by connector), so each connector becomes one selection.
 */
export function buildSelections(
  tools: readonly RegistryTool[],
  sources: ReadonlyMap<string, ListSource>,
): Hashed<Selection>[] {
  const selections: Selection[] = [];
  for (const tool of tools) {
    let selection = selections.at(-1);
    if (selection?.connectorId !== tool.connectorId) {
      const source = sources.get(tool.connectorId);
      if (!source) throw new Error(`No tool list for connector ${tool.connectorId}.`);
      selection = { connectorId: tool.connectorId, name: source.name, list: source.list.hash, tools: [] };
      selections.push(selection);
    }
    selection.tools.push({ name: tool.toolName, exposedName: tool.exposedName, policy: tool.policy });
  }
  return selections.map((selection) => hashJson(selection));
}

export function buildManifest(selections: readonly Hashed<Selection>[]): SnapshotManifest {
  return { v: MANIFEST_VERSION, selections: selections.map((selection) => selection.hash) };
}

const byName = new WeakMap<readonly McpTool[], Map<string, McpTool>>();

function indexByName(tools: readonly McpTool[]): Map<string, McpTool> {
  let index = byName.get(tools);
  if (!index) {
    index = new Map(tools.map((tool) => [tool.name, tool]));
    byName.set(tools, index);
  }
  return index;
}

/** The snapshot's tools from its selections (in order) and their lists by hash. */
export function expandSelections(
  selections: readonly Selection[],
  lists: ReadonlyMap<string, readonly McpTool[]>,
): RegistryTool[] {
  return selections.flatMap(({ connectorId, name, list, tools }) => {
    const index = indexByName(lists.get(list) ?? []);
    return tools.map(({ name: toolName, exposedName, policy }): RegistryTool => {
      const tool = index.get(toolName);
      if (!tool) throw new Error(`Tool ${toolName} is not in tool list ${list}.`);
      const { description, inputSchema } = tool;
      return {
        canonicalName: `${name}.${toolName}`,
        exposedName,
        description,
        inputSchema,
        connectorId,
        toolName,
        policy,
        ...(tool.readOnly === true && { readOnly: true as const }),
      };
    });
  });
}
