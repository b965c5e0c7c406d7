// A session's connector panel: which connectors the user may switch on in this chat (the admin's
// and their own), which are on, each connector's health and tools with their per-tool switches,
// and the current registry revision. Every switch goes through the registry, which bumps the
// revision; the running turn picks it up on its next model request.
import type { Db } from "../db.ts";
import { AppError } from "../errors.ts";
import { getChatSession } from "../session/chat-sessions.ts";
import type { ConnectionHealth, ConnectionPool } from "./connections.ts";
import { listConnectors } from "./connectors.ts";
import type { McpRegistry, ResolvedConnector } from "./registry.ts";

export type SessionToolDto = { name: string; exposedName: string | null; description: string; enabled: boolean };
export type SessionConnectorDto = {
  id: string;
  name: string;
  source: "admin" | "user";
  enabled: boolean;
  health: ConnectionHealth;
  lastError: string | null;
  tools: SessionToolDto[];
};
export type SessionToolsDto = { revision: number; builtinTools: SessionToolDto[]; connectors: SessionConnectorDto[] };

type Deps = {
  db: Db;
  registry: McpRegistry;
  pool: ConnectionPool;
  resolveConnector: (id: string) => Promise<ResolvedConnector | null>;
};

async function assertVisibleConnector(db: Db, ownerId: string, connectorId: string): Promise<void> {
  const visible = await listConnectors(db, ownerId);
  if (!visible.some((connector) => connector.id === connectorId)) throw new AppError("not_found:connector");
}

export async function getSessionTools(deps: Deps, ownerId: string, sessionId: string): Promise<SessionToolsDto> {
  const { db, registry, pool } = deps;
  await getChatSession(db, ownerId, sessionId);
  const snapshot = await registry.snapshot(sessionId);
  const [visible, bindings] = await Promise.all([
    listConnectors(db, ownerId),
    db.sessionConnector.findMany({ where: { sessionId } }),
  ]);
  const exposed = new Map(snapshot.tools.map((tool) => [`${tool.connectorId}/${tool.toolName}`, tool.exposedName]));
  const connectors = await Promise.all(
    visible.map(async (connector): Promise<SessionConnectorDto> => {
      const binding = bindings.find((candidate) => candidate.connectorId === connector.id);
      const resolved = binding?.enabled ? await deps.resolveConnector(connector.id) : null;
      const listed = resolved
        ? await pool.listTools(connector.id, resolved.config, AbortSignal.timeout(5_000)).catch(() => [])
        : [];
      return {
        id: connector.id,
        name: connector.name,
        source: connector.source,
        enabled: binding?.enabled ?? false,
        health: pool.health(connector.id),
        lastError: pool.lastError(connector.id) ?? null,
        tools: listed.map((tool) => ({
          name: tool.name,
          exposedName: exposed.get(`${connector.id}/${tool.name}`) ?? null,
          description: tool.description,
          enabled: !binding?.disabledTools.includes(tool.name),
        })),
      };
    }),
  );
  const builtinTools = snapshot.tools
    .filter((tool) => tool.connectorId === "builtin")
    .map((tool) => ({
      name: tool.canonicalName,
      exposedName: tool.exposedName,
      description: tool.description,
      enabled: true,
    }));
  return { revision: snapshot.revision, builtinTools, connectors };
}

export async function setConnectorEnabled(
  deps: Deps,
  ownerId: string,
  input: { sessionId: string; connectorId: string; enabled: boolean },
): Promise<{ revision: number }> {
  await getChatSession(deps.db, ownerId, input.sessionId);
  await assertVisibleConnector(deps.db, ownerId, input.connectorId);
  await deps.db.sessionConnector.upsert({
    where: { sessionId_connectorId: { sessionId: input.sessionId, connectorId: input.connectorId } },
    create: { sessionId: input.sessionId, connectorId: input.connectorId, enabled: input.enabled },
    update: { enabled: input.enabled },
  });
  return { revision: await deps.registry.rebuild(input.sessionId, input.enabled ? "connector on" : "connector off") };
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
  await deps.db.sessionConnector.update({ where: key, data: { disabledTools: [...disabled] } });
  return { revision: await deps.registry.rebuild(input.sessionId, input.enabled ? "tool on" : "tool off") };
}
