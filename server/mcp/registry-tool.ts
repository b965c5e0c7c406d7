// What a registry snapshot holds: the tools of one revision, each with what the model sees (its
// canonical and exposed names, description, schema), where it lives (connector and MCP tool name)
// and its policy. Shared by the registry and the storage of revisions. Types only.
import type { ToolSpec } from "../core/canonical.ts";
import type { ExposedPolicy } from "../core/tool-policy.ts";

/** A tool of a snapshot: what the model sees, where it lives, and whether its calls need approval. */
/** `readOnly`: its MCP server marks it read-only (annotations.readOnlyHint), for read-only sub-agents. */
export type RegistryTool = ToolSpec & { connectorId: string; toolName: string; policy: ExposedPolicy; readOnly?: true };
/** Structurally a ToolSnapshot, with where each tool lives. */
export type RegistrySnapshot = { revision: number; tools: RegistryTool[] };
