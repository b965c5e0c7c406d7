// Switching one of Patchbay's built-in tools (builtin-tools.ts) on or off in one chat. The switch is
// ChatSession.disabledBuiltins; like any tool switch it is a tool change: the registry rebuilds (a
// new revision, applied from the next model request, or at once with Apply now), and a rebuild that
// fails undoes the switch (rebuild-or-undo.ts).
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { BUILTIN_CONNECTOR } from "./connector-names.ts";
import { rebuildOrUndo } from "./rebuild-or-undo.ts";
import type { McpRegistry } from "./registry.ts";

type Deps = { db: Db; registry: McpRegistry };

/** `name`: the canonical name (`builtin.attempt_completion`) or the bare tool name. */
export async function setBuiltinToolEnabled(
  deps: Deps,
  ownerId: string,
  input: { sessionId: string; name: string; enabled: boolean },
): Promise<{ revision: number }> {
  await getChatSession(deps.db, ownerId, input.sessionId);
  const prefix = `${BUILTIN_CONNECTOR}.`;
  const toolName = input.name.startsWith(prefix) ? input.name.slice(prefix.length) : input.name;
  if (!deps.registry.listBuiltins().some((tool) => tool.canonicalName === `${prefix}${toolName}`))
    throw new AppError("bad_request:tools", `There is no built-in tool named ${input.name}.`);
  const { sessionId } = input;
  const session = await deps.db.chatSession.findUniqueOrThrow({
    where: { id: sessionId },
    select: { disabledBuiltins: true },
  });
  const disabled = new Set(session.disabledBuiltins);
  if (input.enabled) disabled.delete(toolName);
  else disabled.add(toolName);
  const written = [...disabled];
  await deps.db.chatSession.update({ where: { id: sessionId }, data: { disabledBuiltins: written } });
  return rebuildOrUndo(deps.registry, {
    sessionId,
    reason: input.enabled ? "tool on" : "tool off",
    what: "switch",
    undo: () =>
      deps.db.chatSession.updateMany({
        where: { id: sessionId, disabledBuiltins: { equals: written } },
        data: { disabledBuiltins: session.disabledBuiltins },
      }),
  });
}
