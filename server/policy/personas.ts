// Personas: session presets of a system prompt and a tool allowlist, owned by one user and chosen
// per chat. Every query filters on the owner, so another user's persona is indistinguishable from a
// missing one (not_found:persona). A chat's persona prompt replaces the instance default from its
// next turn; its allowlist filters the chat's tool snapshot, so changing either the chat's persona or
// a persona's allowlist rebuilds the registry of every chat concerned.
import { z } from "zod";

import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { rebuildOrUndo } from "../mcp/rebuild-or-undo.ts";
import type { McpRegistry } from "../mcp/registry.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { allowlistEntrySchema } from "../core/tool-policy.ts";

export const personaInputSchema = z.object({
  name: z.string().trim().min(1, { error: "Name the persona" }).max(80, { error: "80 characters at most" }),
  systemPrompt: z.string().trim().min(1, { error: "Write a system prompt" }).max(20_000),
  /** Canonical tool names, `server.*` or `*`; empty: no tools at all. */
  toolAllowlist: z.array(allowlistEntrySchema).max(200),
});
export type PersonaInput = z.infer<typeof personaInputSchema>;

export type PersonaDto = PersonaInput & { id: string; createdAt: Date; updatedAt: Date };

type Deps = { db: Db; registry: Pick<McpRegistry, "rebuild" | "rebuildSessions"> };

const select = {
  id: true,
  name: true,
  systemPrompt: true,
  toolAllowlist: true,
  createdAt: true,
  updatedAt: true,
} as const;

function nameTaken(error: unknown, name: string | undefined): unknown {
  const isTaken = error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
  return isTaken ? new AppError("conflict:persona", `You already have a persona named "${name}".`) : error;
}

export async function listPersonas(db: Db, ownerId: string): Promise<PersonaDto[]> {
  return db.persona.findMany({ where: { ownerId }, orderBy: { name: "asc" }, select });
}

export async function createPersona(db: Db, ownerId: string, input: PersonaInput): Promise<PersonaDto> {
  try {
    return await db.persona.create({ data: { ...input, ownerId }, select });
  } catch (error) {
    throw nameTaken(error, input.name);
  }
}

export async function updatePersona(
  deps: Deps,
  ownerId: string,
  id: string,
  patch: Partial<PersonaInput>,
): Promise<PersonaDto> {
  const { db, registry } = deps;
  try {
    const { count } = await db.persona.updateMany({ where: { id, ownerId }, data: patch });
    if (count === 0) throw new AppError("not_found:persona");
  } catch (error) {
    throw nameTaken(error, patch.name);
  }
  if (patch.toolAllowlist) await registry.rebuildSessions(await sessionsUsing(db, id), "persona tools");
  return db.persona.findUniqueOrThrow({ where: { id }, select });
}

export async function deletePersona(deps: Deps, ownerId: string, id: string): Promise<void> {
  const { db, registry } = deps;
  const sessionIds = await sessionsUsing(db, id);
  const { count } = await db.persona.deleteMany({ where: { id, ownerId } });
  if (count === 0) throw new AppError("not_found:persona");
  await registry.rebuildSessions(sessionIds, "persona removed"); // their persona is now null
}

/** Chooses the chat's persona (`null`: none, the instance defaults). */
export async function setSessionPersona(
  deps: Deps,
  ownerId: string,
  input: { sessionId: string; personaId: string | null },
): Promise<{ revision: number }> {
  const { db, registry } = deps;
  await getChatSession(db, ownerId, input.sessionId);
  if (input.personaId) {
    const persona = await db.persona.findFirst({ where: { id: input.personaId, ownerId }, select: { id: true } });
    if (!persona) throw new AppError("not_found:persona");
  }
  const { personaId: previous } = await db.chatSession.findUniqueOrThrow({
    where: { id: input.sessionId },
    select: { personaId: true },
  });
  await db.chatSession.updateMany({ where: { id: input.sessionId, ownerId }, data: { personaId: input.personaId } });
  return rebuildOrUndo(registry, {
    sessionId: input.sessionId,
    reason: input.personaId ? "persona" : "persona cleared",
    what: "persona change",
    undo: () =>
      db.chatSession.updateMany({
        where: { id: input.sessionId, personaId: input.personaId },
        data: { personaId: previous },
      }),
  });
}

async function sessionsUsing(db: Db, personaId: string): Promise<string[]> {
  const rows = await db.chatSession.findMany({ where: { personaId }, select: { id: true } });
  return rows.map((row) => row.id);
}
