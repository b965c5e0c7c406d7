// A session's connector panel: which connectors the user may switch on in this chat (the admin's
// and their own), which are on, each connector's health and tools with their per-tool switches,
// each connector's tool policy (allow / ask / deny) and per-tool overrides, and the current registry
// revision. Every switch goes through the registry, which bumps the revision; the running turn picks
// it up on its next model request. Policies are set in server/policy/connector-policy.ts.
// The panel never lies about the tools: a switch whose rebuild fails is undone (and the user told
// why), and a background rebuild that failed is shown (and retried) until one succeeds.
// The panel stays small whatever the servers list: each connector sends at most PANEL_TOOLS_PER_CONNECTOR
// tools (those matching `query`, when given) with descriptions cut to PANEL_DESCRIPTION_CHARS, plus
// its counts; and it says, before anything is sent, when the chat's tools are over the limits of the
// chat's provider (tool-limits.ts), which a turn would refuse to send.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { DEFAULT_POLICY, parseToolPolicies, type ToolPolicy } from "../core/tool-policy.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { connectionKey } from "./connection-keys.ts";
import { requestBytes, toolLimitProblem } from "../core/tool-limits.ts";
import { type ProviderId, providerIdSchema } from "../core/canonical.ts";
import type { ConnectionPool } from "./connection-pool.ts";
import type { ConnectionHealth, McpTool } from "./connection-types.ts";
import { listConnectors } from "./connectors.ts";
import { BUILTIN_CONNECTOR, PERSONA_CONNECTOR } from "./connector-names.ts";
import { findNameClashes } from "./name-clashes.ts";
import { rebuildOrUndo } from "./rebuild-or-undo.ts";
import type { McpRegistry } from "./registry.ts";
import type { ResolvedConnector } from "./registry-options.ts";
import type { RegistrySnapshot } from "./registry-tool.ts";

/**
 * `exposedName` is null when the model does not see the tool (switched off, denied, or outside the
 * persona's allowlist). `policy` is the tool's effective policy; `policyOverride` its own, if any.
 */
export type SessionToolDto = {
  name: string;
  exposedName: string | null;
  description: string;
  enabled: boolean;
  policy: ToolPolicy;
  policyOverride: ToolPolicy | null;
};
export type SessionConnectorDto = {
  id: string;
  name: string;
  source: "admin" | "user";
  enabled: boolean;
  /** The connector's policy in this chat, for tools without an override. */
  policy: ToolPolicy;
  health: ConnectionHealth;
  lastError: string | null;
  /** Why the connector's tools are left out of this chat although it is on (a name clash), or null. */
  conflict: string | null;
  /** At most PANEL_TOOLS_PER_CONNECTOR of the connector's tools: the first, or those matching the query. */
  tools: SessionToolDto[];
  /** How many tools the connector lists, and how many match the query (all of them without one). */
  toolCount: number;
  matchCount: number;
};
/** The chat's provider and, when its tools are over that provider's limits, what to do about it. */
export type ToolLimitDto = { provider: ProviderId; exposedCount: number; problem: string | null };
/** `rebuildError`: the tools could not be updated after a change, so the model still sees `revision`'s. */
export type SessionToolsDto = {
  revision: number;
  rebuildError: string | null;
  limit: ToolLimitDto | null;
  builtinTools: SessionToolDto[];
  /** Personas offered as sub-agents (`persona.<slug>`): on while the persona says so, in Settings → Personas. */
  subAgentTools: { name: string; exposedName: string; description: string }[];
  connectors: SessionConnectorDto[];
};

type Deps = {
  db: Db;
  registry: McpRegistry;
  pool: ConnectionPool;
  resolveConnector: (id: string) => Promise<ResolvedConnector | null>;
};

export async function assertVisibleConnector(db: Db, ownerId: string, connectorId: string): Promise<void> {
  const visible = await listConnectors(db, ownerId);
  if (!visible.some((connector) => connector.id === connectorId)) throw new AppError("not_found:connector");
}

export const PANEL_TOOLS_PER_CONNECTOR = 50;
export const PANEL_DESCRIPTION_CHARS = 500;

/** What the panel asks for: a search over tool names and descriptions; the provider new chats use. */
export type SessionToolsQuery = { query?: string; defaultProvider?: ProviderId | null };

export async function getSessionTools(
  deps: Deps,
  ownerId: string,
  sessionId: string,
  options: SessionToolsQuery = {},
): Promise<SessionToolsDto> {
  const { db, registry, pool } = deps;
  await getChatSession(db, ownerId, sessionId);
  const matches = toolMatcher(options.query);
  await registry.retryFailedRebuild(sessionId);
  const snapshot = await registry.snapshot(sessionId);
  const failure = registry.rebuildFailure(sessionId);
  const [visible, bindings] = await Promise.all([
    listConnectors(db, ownerId),
    db.sessionConnector.findMany({ where: { sessionId } }),
  ]);
  const exposed = new Map(snapshot.tools.map((tool) => [`${tool.connectorId}/${tool.toolName}`, tool.exposedName]));
  const isOn = (id: string) => bindings.some((binding) => binding.connectorId === id && binding.enabled);
  const clashes = findNameClashes(
    visible
      .filter((connector) => isOn(connector.id))
      .map(({ id, name, source }) => ({ connectorId: id, name, source })),
  );
  const connectors = await Promise.all(
    visible.map(async (connector): Promise<SessionConnectorDto> => {
      const binding = bindings.find((candidate) => candidate.connectorId === connector.id);
      const isUsable = binding?.enabled === true && !clashes.has(connector.id);
      const resolved = isUsable ? await deps.resolveConnector(connector.id) : null;
      const key = resolved ? connectionKey(resolved, ownerId) : connector.id;
      const listed = resolved
        ? await pool.listTools(key, resolved.config, AbortSignal.timeout(5_000)).catch(() => [])
        : [];
      const policy = binding?.policy ?? DEFAULT_POLICY;
      const overrides = parseToolPolicies(binding?.toolPolicies);
      const matching = listed.filter(matches);
      return {
        id: connector.id,
        name: connector.name,
        source: connector.source,
        enabled: binding?.enabled ?? false,
        policy,
        health: pool.health(key),
        lastError: pool.lastError(key) ?? null,
        conflict: clashes.get(connector.id) ?? null,
        toolCount: listed.length,
        matchCount: matching.length,
        tools: matching.slice(0, PANEL_TOOLS_PER_CONNECTOR).map((tool) => ({
          name: tool.name,
          exposedName: exposed.get(`${connector.id}/${tool.name}`) ?? null,
          description: clip(tool.description, PANEL_DESCRIPTION_CHARS),
          enabled: !binding?.disabledTools.includes(tool.name),
          policy: overrides[tool.name] ?? policy,
          policyOverride: overrides[tool.name] ?? null,
        })),
      };
    }),
  );
  const builtinTools = await listBuiltinTools(deps, sessionId, snapshot);
  const rebuildError = failure
    ? `This chat's tools could not be updated (${failure.reason}): ${failure.message} The model keeps the tools of revision ${snapshot.revision} until an update succeeds.`
    : null;
  const limit = await toolLimit(db, sessionId, snapshot, options.defaultProvider ?? null);
  const subAgentTools = snapshot.tools
    .filter((tool) => tool.connectorId === PERSONA_CONNECTOR)
    .map(({ canonicalName, exposedName, description }) => ({ name: canonicalName, exposedName, description }));
  return { revision: snapshot.revision, rebuildError, limit, builtinTools, subAgentTools, connectors };
}

/** Every built-in with its switch; `exposedName` is null for one switched off (or outside the persona). */
async function listBuiltinTools(deps: Deps, sessionId: string, snapshot: RegistrySnapshot): Promise<SessionToolDto[]> {
  const row = await deps.db.chatSession.findUnique({ where: { id: sessionId }, select: { disabledBuiltins: true } });
  const disabled = new Set(row?.disabledBuiltins ?? []);
  const exposed = new Map(snapshot.tools.map((tool) => [tool.canonicalName, tool.exposedName]));
  return deps.registry.listBuiltins().map((tool) => ({
    name: tool.canonicalName,
    exposedName: exposed.get(tool.canonicalName) ?? null,
    description: tool.description,
    enabled: !disabled.has(tool.canonicalName.slice(BUILTIN_CONNECTOR.length + 1)),
    policy: "allow" as const,
    policyOverride: null,
  }));
}

/** The chat's provider (its own choice, else the default) measured against the revision it would send. */
async function toolLimit(
  db: Db,
  sessionId: string,
  snapshot: RegistrySnapshot,
  defaultProvider: ProviderId | null,
): Promise<ToolLimitDto | null> {
  const row = await db.chatSession.findUnique({ where: { id: sessionId }, select: { provider: true } });
  const chosen = providerIdSchema.safeParse(row?.provider);
  const provider = chosen.success ? chosen.data : defaultProvider;
  if (!provider) return null;
  const declarations = snapshot.tools.map(({ exposedName, description, inputSchema }) => ({
    exposedName,
    description,
    inputSchema,
  }));
  const load = { toolCount: snapshot.tools.length, requestBytes: requestBytes(declarations) };
  return { provider, exposedCount: snapshot.tools.length, problem: toolLimitProblem(provider, load) };
}

/** Case-insensitive search in a tool's name and description; everything matches an empty query. */
function toolMatcher(query: string | undefined): (tool: McpTool) => boolean {
  const needle = query?.trim().toLowerCase();
  if (!needle) return () => true;
  return (tool) => tool.name.toLowerCase().includes(needle) || tool.description.toLowerCase().includes(needle);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export async function setConnectorEnabled(
  deps: Deps,
  ownerId: string,
  input: { sessionId: string; connectorId: string; enabled: boolean },
): Promise<{ revision: number }> {
  await getChatSession(deps.db, ownerId, input.sessionId);
  await assertVisibleConnector(deps.db, ownerId, input.connectorId);
  const { sessionId, connectorId, enabled } = input;
  const where = { sessionId_connectorId: { sessionId, connectorId } };
  const previous = await deps.db.sessionConnector.findUnique({ where, select: { enabled: true } });
  await deps.db.sessionConnector.upsert({ where, create: { sessionId, connectorId, enabled }, update: { enabled } });
  const unchanged = { sessionId, connectorId, enabled }; // undo only what nobody has changed since
  return rebuildOrUndo(deps.registry, {
    sessionId,
    reason: enabled ? "connector on" : "connector off",
    what: "switch",
    undo: () =>
      previous
        ? deps.db.sessionConnector.updateMany({ where: unchanged, data: { enabled: previous.enabled } })
        : deps.db.sessionConnector.deleteMany({ where: unchanged }),
  });
}

export async function setToolEnabled(
  deps: Deps,
  ownerId: string,
  input: { sessionId: string; connectorId: string; toolName: string; enabled: boolean },
): Promise<{ revision: number }> {
  await getChatSession(deps.db, ownerId, input.sessionId);
  await assertVisibleConnector(deps.db, ownerId, input.connectorId);
  const key = { sessionId_connectorId: { sessionId: input.sessionId, connectorId: input.connectorId } };
  const binding = await deps.db.sessionConnector.findUnique({ where: key });
  if (!binding) throw new AppError("bad_request:tools", "Switch the connector on in this chat first.");
  const disabled = new Set(binding.disabledTools);
  if (input.enabled) disabled.delete(input.toolName);
  else disabled.add(input.toolName);
  const written = [...disabled];
  await deps.db.sessionConnector.update({ where: key, data: { disabledTools: written } });
  const { sessionId, connectorId } = input;
  return rebuildOrUndo(deps.registry, {
    sessionId,
    reason: input.enabled ? "tool on" : "tool off",
    what: "switch",
    undo: () =>
      deps.db.sessionConnector.updateMany({
        where: { sessionId, connectorId, disabledTools: { equals: written } },
        data: { disabledTools: binding.disabledTools },
      }),
  });
}
