// Setting a chat's tool policy: a connector's policy (allow / ask / deny) and per-tool overrides.
// Only the chat's owner may set them, and only for a connector visible to them. Setting a policy on a
// connector not yet bound to the chat binds it switched off, so a policy can be chosen before the
// connector is switched on. Every change rebuilds the registry: a new revision, applied from the
// running turn's next model request (or at once with apply now).
import type { Db } from "../db.ts";
import type { McpRegistry } from "../mcp/registry.ts";
import { assertVisibleConnector } from "../mcp/session-tools.ts";
import { getChatSession } from "../session/chat-sessions.ts";
import type { ToolPolicy } from "./rules.ts";

type Deps = { db: Db; registry: Pick<McpRegistry, "rebuild"> };
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
  await assertOwnBinding(db, ownerId, input);
  await db.sessionConnector.upsert({
    where: { sessionId_connectorId: { sessionId: input.sessionId, connectorId: input.connectorId } },
    create: { sessionId: input.sessionId, connectorId: input.connectorId, enabled: false, policy: input.policy },
    update: { policy: input.policy },
  });
  return { revision: await registry.rebuild(input.sessionId, `connector policy ${input.policy}`) };
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
  // One statement each, so concurrent changes to different tools of one binding never lose each other.
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
  return { revision: await registry.rebuild(sessionId, policy ? `tool policy ${policy}` : "tool policy cleared") };
}
