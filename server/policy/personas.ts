// Personas: session presets of a system prompt and a tool allowlist, owned by one user and chosen
// per chat. Every query filters on the owner, so another user's persona is indistinguishable from a
// missing one (not_found:persona). A chat's persona prompt replaces the instance default from its
// next turn; its allowlist filters the chat's tool snapshot, so changing either the chat's persona or
// a persona's allowlist rebuilds the registry of every chat concerned.
// A persona may also be offered to all its owner's chats as a sub-agent, the tool `persona.<slug>`
// (sub-agent-tools.ts): switching that, or changing what the tool shows (name, prompt), rebuilds
// the owner's chats, so it is a tool change like any other (Apply now included).
import { z } from "zod";

import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { rebuildOrUndo } from "../mcp/rebuild-or-undo.ts";
import type { McpRegistry } from "../mcp/registry.ts";
import { getChatSession } from "../db/chat-sessions.ts";
import { allowlistEntrySchema } from "../core/tool-policy.ts";
import { providerIdSchema } from "../core/canonical.ts";

/** How a persona runs when a chat calls it as a tool. `model` null: the calling chat's model. */
export const subAgentSettingsSchema = z.object({
  model: z
    .object({ provider: providerIdSchema, model: z.string().min(1).max(200), accountId: z.string().max(64).nullable() })
    .nullable(),
  /** Model requests one run may make (null: the default, SUB_AGENT_DEFAULT_STEPS). */
  maxSteps: z.number().int().min(1).max(50).nullable(),
  /** Seconds one run may take (null: the default, SUB_AGENT_DEFAULT_TIMEOUT_SEC). */
  timeoutSec: z.number().int().min(5).max(3600).nullable(),
  /** Only tools an MCP server marks read-only (annotations.readOnlyHint). */
  isReadOnly: z.boolean(),
});
export type SubAgentSettings = z.infer<typeof subAgentSettingsSchema>;

export const SUB_AGENT_DEFAULT_STEPS = 8;
export const SUB_AGENT_DEFAULT_TIMEOUT_SEC = 300;

export const personaInputSchema = z.object({
  name: z.string().trim().min(1, { error: "Name the persona" }).max(80, { error: "80 characters at most" }),
  systemPrompt: z.string().trim().min(1, { error: "Write a system prompt" }).max(20_000),
  /** Canonical tool names, `server.*` or `*`; empty: no tools at all. */
  toolAllowlist: z.array(allowlistEntrySchema).max(200),
  /** null (or absent): not offered to chats as a sub-agent. */
  subAgent: subAgentSettingsSchema.nullable().optional(),
});
export type PersonaInput = z.infer<typeof personaInputSchema>;

export type PersonaDto = Omit<PersonaInput, "subAgent"> & {
  id: string;
  subAgent: SubAgentSettings | null;
  createdAt: Date;
  updatedAt: Date;
};

type Deps = { db: Db; registry: Pick<McpRegistry, "rebuild" | "rebuildSessions"> };

const select = {
  id: true,
  name: true,
  systemPrompt: true,
  toolAllowlist: true,
  isSubAgent: true,
  subAgentProvider: true,
  subAgentModel: true,
  subAgentAccountId: true,
  subAgentMaxSteps: true,
  subAgentTimeoutSec: true,
  isReadOnly: true,
  createdAt: true,
  updatedAt: true,
} as const;

type PersonaRow = {
  id: string;
  name: string;
  systemPrompt: string;
  toolAllowlist: string[];
  isSubAgent: boolean;
  subAgentProvider: string | null;
  subAgentModel: string | null;
  subAgentAccountId: string | null;
  subAgentMaxSteps: number | null;
  subAgentTimeoutSec: number | null;
  isReadOnly: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/** The stored columns as the DTO's `subAgent` settings (null: not a sub-agent). */
export function subAgentOf(
  row: Omit<PersonaRow, "id" | "name" | "systemPrompt" | "toolAllowlist" | "createdAt" | "updatedAt">,
): SubAgentSettings | null {
  if (!row.isSubAgent) return null;
  const provider = providerIdSchema.safeParse(row.subAgentProvider);
  return {
    model:
      provider.success && row.subAgentModel
        ? { provider: provider.data, model: row.subAgentModel, accountId: row.subAgentAccountId }
        : null,
    maxSteps: row.subAgentMaxSteps,
    timeoutSec: row.subAgentTimeoutSec,
    isReadOnly: row.isReadOnly,
  };
}

function toDto(row: PersonaRow): PersonaDto {
  const { id, name, systemPrompt, toolAllowlist, createdAt, updatedAt } = row;
  return { id, name, systemPrompt, toolAllowlist, subAgent: subAgentOf(row), createdAt, updatedAt };
}

/** The input as columns: `subAgent` absent leaves them as they are, null switches the sub-agent off. */
function toData(input: Partial<PersonaInput>) {
  const { subAgent, ...rest } = input;
  if (subAgent === undefined) return rest;
  return {
    ...rest,
    isSubAgent: subAgent !== null,
    subAgentProvider: subAgent?.model?.provider ?? null,
    subAgentModel: subAgent?.model?.model ?? null,
    subAgentAccountId: subAgent?.model?.accountId ?? null,
    subAgentMaxSteps: subAgent?.maxSteps ?? null,
    subAgentTimeoutSec: subAgent?.timeoutSec ?? null,
    isReadOnly: subAgent?.isReadOnly ?? false,
  };
}

/** A sub-agent's own model must be on one of the owner's accounts (or the server's key, checked when it runs). */
async function assertOwnAccount(db: Db, ownerId: string, input: Partial<PersonaInput>): Promise<void> {
  const model = input.subAgent?.model;
  if (!model?.accountId) return;
  const account = await db.providerAccount.findFirst({
    where: { id: model.accountId, ownerId },
    select: { provider: true },
  });
  if (account?.provider !== model.provider)
    throw new AppError("not_found:provider", "That provider account was not found.");
}

function nameTaken(error: unknown, name: string | undefined): unknown {
  const isTaken = error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
  return isTaken ? new AppError("conflict:persona", `You already have a persona named "${name}".`) : error;
}

export async function listPersonas(db: Db, ownerId: string): Promise<PersonaDto[]> {
  const rows = await db.persona.findMany({ where: { ownerId }, orderBy: { name: "asc" }, select });
  return rows.map(toDto);
}

export async function createPersona(deps: Deps, ownerId: string, input: PersonaInput): Promise<PersonaDto> {
  await assertOwnAccount(deps.db, ownerId, input);
  let row: PersonaRow;
  try {
    const { name, systemPrompt, toolAllowlist } = input;
    row = await deps.db.persona.create({
      data: { ...toData(input), name, systemPrompt, toolAllowlist, ownerId },
      select,
    });
  } catch (error) {
    throw nameTaken(error, input.name);
  }
  if (row.isSubAgent) await deps.registry.rebuildSessions(await ownerSessions(deps.db, ownerId), "sub-agent added");
  return toDto(row);
}

export async function updatePersona(
  deps: Deps,
  ownerId: string,
  id: string,
  patch: Partial<PersonaInput>,
): Promise<PersonaDto> {
  const { db, registry } = deps;
  await assertOwnAccount(db, ownerId, patch);
  const before = await db.persona.findFirst({ where: { id, ownerId }, select: { isSubAgent: true } });
  try {
    const { count } = await db.persona.updateMany({ where: { id, ownerId }, data: toData(patch) });
    if (count === 0) throw new AppError("not_found:persona");
  } catch (error) {
    throw nameTaken(error, patch.name);
  }
  const row = await db.persona.findUniqueOrThrow({ where: { id }, select });
  // The tool persona.<slug> shows the name and prompt; the chats using the persona its allowlist.
  const isToolChanged =
    (before?.isSubAgent ?? false) !== row.isSubAgent ||
    (row.isSubAgent && (patch.name !== undefined || patch.systemPrompt !== undefined));
  if (isToolChanged) await registry.rebuildSessions(await ownerSessions(db, ownerId), "sub-agent");
  else if (patch.toolAllowlist) await registry.rebuildSessions(await sessionsUsing(db, id), "persona tools");
  return toDto(row);
}

export async function deletePersona(deps: Deps, ownerId: string, id: string): Promise<void> {
  const { db, registry } = deps;
  const sessionIds = await sessionsUsing(db, id);
  const before = await db.persona.findFirst({ where: { id, ownerId }, select: { isSubAgent: true } });
  const { count } = await db.persona.deleteMany({ where: { id, ownerId } });
  if (count === 0) throw new AppError("not_found:persona");
  // Their persona is now null; a sub-agent's tool leaves every chat of its owner.
  await registry.rebuildSessions(before?.isSubAgent ? await ownerSessions(db, ownerId) : sessionIds, "persona removed");
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

/** The owner's chats whose tools were built at least once (the others build theirs when first read). */
async function ownerSessions(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db.chatSession.findMany({ where: { ownerId, toolsRevision: { gt: 0 } }, select: { id: true } });
  return rows.map((row) => row.id);
}
