// A sub-agent run's row (SubAgentRun) and what the browser sees of it. The run keeps its canonical
// messages (the task, the assistant answers, the tool results) and the audit of each model request
// in the row, rewritten after every step and tool call; each write is followed by one
// `subagent.updated` event carrying the whole run as a DTO (provider-opaque data stripped), so a
// card shows the run live and a reload reads the same DTO from the history.
import type { CanonicalMessage, ProviderId } from "../core/canonical.ts";
import type { Db } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { appendEvent } from "./event-log.ts";
import { toPartDto, type PartDto } from "./part-dto.ts";

export type SubAgentStatus = "running" | "completed" | "failed" | "cancelled";

/** One model request of a sub-agent run, like a turn's: revision and exact tool names shown. */
export type SubAgentRequest = {
  index: number;
  provider: ProviderId;
  model: string;
  toolsRevision: number;
  toolNames: string[];
  finishReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
};

export type SubAgentRunDto = {
  id: string;
  turnId: string;
  /** The parent turn's tool call (`persona.<slug>`) this run answers. */
  callId: string;
  personaName: string;
  provider: string;
  model: string;
  status: SubAgentStatus;
  messages: { role: CanonicalMessage["role"]; parts: PartDto[] }[];
  requests: SubAgentRequest[];
  stepCount: number;
  inputTokens: number;
  outputTokens: number;
  error: { code: string; message: string } | null;
};

/** The run as the runner holds it while it works; `save` writes it and tells the browsers. */
export type SubAgentRecord = {
  id: string;
  sessionId: string;
  turnId: string;
  callId: string;
  personaId: string;
  personaName: string;
  provider: ProviderId;
  model: string;
  accountId: string | null;
  status: SubAgentStatus;
  messages: CanonicalMessage[];
  requests: SubAgentRequest[];
  inputTokens: number;
  outputTokens: number;
  error: { code: string; message: string } | null;
};

function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

export function toSubAgentDto(run: Omit<SubAgentRecord, "sessionId" | "personaId" | "accountId">): SubAgentRunDto {
  return {
    id: run.id,
    turnId: run.turnId,
    callId: run.callId,
    personaName: run.personaName,
    provider: run.provider,
    model: run.model,
    status: run.status,
    messages: run.messages.map((message) => ({ role: message.role, parts: message.parts.map(toPartDto) })),
    requests: run.requests,
    stepCount: run.requests.length,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
    error: run.error,
  };
}

async function announce(db: Db, run: SubAgentRecord): Promise<void> {
  await appendEvent(db, {
    sessionId: run.sessionId,
    turnId: run.turnId,
    type: "subagent.updated",
    data: { callId: run.callId, run: toSubAgentDto(run) },
  });
}

/** Stores a new run (a call id answered again, e.g. by a restarted turn's copy, replaces the old row). */
export async function createSubAgentRun(db: Db, run: SubAgentRecord): Promise<void> {
  const data = {
    id: run.id,
    sessionId: run.sessionId,
    turnId: run.turnId,
    callId: run.callId,
    personaId: run.personaId,
    personaName: run.personaName,
    provider: run.provider,
    model: run.model,
    providerAccountId: run.accountId,
    messages: toJson(run.messages),
  };
  await db.subAgentRun.deleteMany({ where: { turnId: run.turnId, callId: run.callId } });
  await db.subAgentRun.create({ data });
  await announce(db, run);
}

export async function saveSubAgentRun(db: Db, run: SubAgentRecord): Promise<void> {
  const isOver = run.status !== "running";
  await db.subAgentRun.update({
    where: { id: run.id },
    data: {
      status: run.status,
      messages: toJson(run.messages),
      requests: toJson(run.requests),
      stepCount: run.requests.length,
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
      error: run.error ? toJson(run.error) : undefined,
      ...(isOver && { endedAt: new Date() }),
    },
  });
  await announce(db, run);
}

/** The session's runs for the history, oldest first. */
export async function listSubAgentRuns(
  db: Prisma.TransactionClient | Db,
  sessionId: string,
): Promise<SubAgentRunDto[]> {
  const rows = await db.subAgentRun.findMany({ where: { sessionId }, orderBy: { startedAt: "asc" } });
  return rows.map((row) =>
    toSubAgentDto({
      id: row.id,
      turnId: row.turnId,
      callId: row.callId,
      personaName: row.personaName,
      provider: row.provider as ProviderId,
      model: row.model,
      status: row.status as SubAgentStatus,
      messages: row.messages as CanonicalMessage[],
      requests: row.requests as SubAgentRequest[],
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      error: (row.error as SubAgentRecord["error"]) ?? null,
    }),
  );
}
