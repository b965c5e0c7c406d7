// What the chat's Tools panel needs beyond server/mcp/session-tools.ts: how many of each connector's
// tools are switched on (the panel shows "12 of 15 tools on" while the connector is collapsed, the
// composer's summary the total) and one switch for all of a connector's tools. Counts cover every
// tool the connector lists, not just the ones the panel was sent. Turning all tools off writes every
// listed name into the chat's disabled tools; turning them on clears the list. Like the single
// switches, a change bumps the revision through the registry and is undone if the rebuild fails.
import { getChatSession } from "../../db/chat-sessions.ts";
import { AppError } from "../../errors.ts";
import { connectionKey } from "../../mcp/connection-keys.ts";
import type { McpRuntime } from "../../mcp/mcp-runtime.ts";
import { rebuildOrUndo } from "../../mcp/rebuild-or-undo.ts";
import { assertVisibleConnector, type SessionConnectorDto, type SessionToolsDto } from "../../mcp/session-tools.ts";

type Runtime = Pick<McpRuntime, "db" | "registry" | "pool" | "resolveConnector">;

/** A connector in the panel, with how many of its tools are on (0 while the connector is off). */
export type PanelConnectorDto = SessionConnectorDto & { enabledCount: number };
export type PanelToolsDto = Omit<SessionToolsDto, "connectors"> & { connectors: PanelConnectorDto[] };

/** The names of the tools a connector lists for this user (the pool caches the list). */
async function listToolNames(runtime: Runtime, ownerId: string, connectorId: string): Promise<string[]> {
  const resolved = await runtime.resolveConnector(connectorId);
  if (!resolved) return [];
  const key = connectionKey(resolved, ownerId);
  const tools = await runtime.pool.listTools(key, resolved.config, AbortSignal.timeout(5_000));
  return tools.map((tool) => tool.name);
}

export async function withEnabledCounts(
  runtime: Runtime,
  ownerId: string,
  sessionId: string,
  tools: SessionToolsDto,
): Promise<PanelToolsDto> {
  const bindings = await runtime.db.sessionConnector.findMany({
    where: { sessionId },
    select: { connectorId: true, disabledTools: true },
  });
  const connectors = await Promise.all(
    tools.connectors.map(async (connector): Promise<PanelConnectorDto> => {
      if (!connector.enabled || connector.conflict || connector.toolCount === 0)
        return { ...connector, enabledCount: 0 };
      const disabled = new Set(bindings.find((binding) => binding.connectorId === connector.id)?.disabledTools ?? []);
      const names = await listToolNames(runtime, ownerId, connector.id).catch(() => []);
      return { ...connector, enabledCount: names.filter((name) => !disabled.has(name)).length };
    }),
  );
  return { ...tools, connectors };
}

export async function setAllToolsEnabled(
  runtime: Runtime,
  ownerId: string,
  input: { sessionId: string; connectorId: string; enabled: boolean },
): Promise<{ revision: number }> {
  const { db } = runtime;
  const { sessionId, connectorId, enabled } = input;
  await getChatSession(db, ownerId, sessionId);
  await assertVisibleConnector(db, ownerId, connectorId);
  const key = { sessionId_connectorId: { sessionId, connectorId } };
  const binding = await db.sessionConnector.findUnique({ where: key });
  if (!binding?.enabled) throw new AppError("bad_request:tools", "Switch the connector on in this chat first.");
  const written = enabled ? [] : await listToolNames(runtime, ownerId, connectorId);
  await db.sessionConnector.update({ where: key, data: { disabledTools: written } });
  return rebuildOrUndo(runtime.registry, {
    sessionId,
    reason: enabled ? "all tools on" : "all tools off",
    what: "switch",
    undo: () =>
      db.sessionConnector.updateMany({
        where: { sessionId, connectorId, disabledTools: { equals: written } },
        data: { disabledTools: binding.disabledTools },
      }),
  });
}
