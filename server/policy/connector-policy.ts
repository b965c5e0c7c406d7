// Setting a chat's tool policy: a connector's policy (allow / ask / deny) and per-tool overrides.
// Only the chat's owner may set them, and only for a connector visible to them. Setting a policy on a
// connector not yet bound to the chat binds it switched off, so a policy can be chosen before the
// connector is switched on. Every change rebuilds the registry: a new revision, applied from the
// running turn's next model request (or at once with apply now); a change whose rebuild fails is
// undone and the user told why (mcp/rebuild-or-undo.ts).
import type { Db } from "../db/client.ts";
import { rebuildOrUndo } from "../mcp/rebuild-or-undo.ts";
import type { McpRegistry } from "../mcp/registry.ts";
import { assertVisibleConnector } from "../mcp/session-tools.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { parseToolPolicies, type ToolPolicy } from "../core/tool-policy.ts";

type Deps = { db: Db; registry: Pick<McpRegistry, "rebuild" | "rebuildSessions"> };
type ConnectorRef = { sessionId: string; connectorId: string };

async function assertOwnBinding(db: Db, ownerId: string, input: ConnectorRef): Promise<void> {
  await getChatSession(db, ownerId, input.sessionId);
  await assertVisibleConnector(db, ownerId, input.connectorId);
}

export async function setConnectorPolicy(
  deps: Deps,
  ownerId: string,
  input: ConnectorRef & { policy: ToolPolicy },
): Promise<{ revision: number }> {
  const { db, registry } = deps;
  const { sessionId, connectorId, policy } = input;
  await assertOwnBinding(db, ownerId, input);
  const where = { sessionId_connectorId: { sessionId, connectorId } };
  const previous = await db.sessionConnector.findUnique({ where, select: { policy: true } });
  await db.sessionConnector.upsert({
    where,
    create: { sessionId, connectorId, enabled: false, policy },
    update: { policy },
  });
  const unchanged = { sessionId, connectorId, policy }; // undo only what nobody has changed since
  return rebuildOrUndo(registry, {
    sessionId,
    reason: `connector policy ${policy}`,
    what: "policy change",
    undo: () =>
      previous
        ? db.sessionConnector.updateMany({ where: unchanged, data: { policy: previous.policy } })
        : db.sessionConnector.deleteMany({ where: { ...unchanged, enabled: false } }),
  });
}

/** Sets one tool's own policy, or clears it (`null`: the tool follows its connector's policy). */
export async function setToolPolicy(
  deps: Deps,
  ownerId: string,
  input: ConnectorRef & { toolName: string; policy: ToolPolicy | null },
): Promise<{ revision: number }> {
  const { db, registry } = deps;
  const { sessionId, connectorId, toolName, policy } = input;
  await assertOwnBinding(db, ownerId, input);
  const previous = parseToolPolicies(
    (await db.sessionConnector.findUnique({ where: { sessionId_connectorId: { sessionId, connectorId } } }))
      ?.toolPolicies,
  )[toolName];
  await writeToolPolicy(db, input, policy);
  return rebuildOrUndo(registry, {
    sessionId,
    reason: policy ? `tool policy ${policy}` : "tool policy cleared",
    what: "policy change",
    // Only if the tool still has what this call wrote: a later change by anyone stays.
    undo: async () => {
      const current = parseToolPolicies(
        (await db.sessionConnector.findUnique({ where: { sessionId_connectorId: { sessionId, connectorId } } }))
          ?.toolPolicies,
      )[toolName];
      if ((current ?? null) === policy) await writeToolPolicy(db, input, previous ?? null);
    },
  });
}

/** One statement each, so concurrent changes to different tools of one binding never lose each other. */
async function writeToolPolicy(db: Db, input: ConnectorRef & { toolName: string }, policy: ToolPolicy | null) {
  const { sessionId, connectorId, toolName } = input;
  if (policy) {
    await db.$executeRaw`
      INSERT INTO "SessionConnector" ("sessionId", "connectorId", "enabled", "toolPolicies", "updatedAt")
      VALUES (${sessionId}, ${connectorId}, false, jsonb_build_object(${toolName}::text, ${policy}::text), now())
      ON CONFLICT ("sessionId", "connectorId") DO UPDATE
      SET "toolPolicies" = "SessionConnector"."toolPolicies" || EXCLUDED."toolPolicies", "updatedAt" = now()`;
  } else {
    await db.$executeRaw`
      UPDATE "SessionConnector" SET "toolPolicies" = "toolPolicies" - ${toolName}::text, "updatedAt" = now()
      WHERE "sessionId" = ${sessionId} AND "connectorId" = ${connectorId}`;
  }
}
