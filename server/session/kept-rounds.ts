// What a restart does to the superseded turn's messages, inside the restart's transaction (see
// restart.ts), on the cut computed by cut-back.ts:
// - every call of the superseded turn gets a stored result: a tool message on that turn holds, per
//   round that lacked one, the results only logged so far and `cancelled` for calls that never
//   returned (a running call, one awaiting approval). The superseded turn is never sent to a model
//   again; this is what its collapsed display shows.
// - Apply now only (`keepInto` set): the leading complete rounds are COPIED into the restarted turn,
//   as its first messages (same parts, same call ids, provider data included), each with
//   `metadata.keptFrom` naming the message it copies. The originals stay on the superseded turn, so
//   both turns read whole; the restarted turn's history is the user message plus these copies, and
//   its first request continues from them. Copies are not new tool calls (the per-minute limit skips
//   them). A plain restart (Regenerate) keeps nothing.
// Returns the events that announce these rows, for the caller to append after the commit.
import type { TransactionClient } from "../generated/prisma/internal/prismaNamespace.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { toolResultPartSchema, type ToolResultPart } from "../core/canonical.ts";
import { cutBack, type RoundCut } from "./cut-back.ts";
import type { EventInput } from "./event-log.ts";
import { toPartDto } from "./history.ts";
import { toCanonicalMessage, type KeptMetadata } from "./transcript.ts";

export type SettledTurn = {
  /** Events of the superseded turn (its new tool messages and cancelled results). */
  oldEvents: EventInput[];
  /** Events of the restarted turn (the kept copies), to follow its `turn.started`. */
  newEvents: EventInput[];
  /** How many complete rounds were copied into the restarted turn. */
  keptRounds: number;
};

type Writer = { tx: TransactionClient; sessionId: string; nextSeq: number };
type NewRow = { turnId: string; role: "assistant" | "tool"; parts: unknown[]; metadata?: KeptMetadata };

async function insertMessage(writer: Writer, row: NewRow): Promise<string> {
  const { id } = await writer.tx.message.create({
    data: {
      sessionId: writer.sessionId,
      turnId: row.turnId,
      seq: writer.nextSeq++,
      role: row.role,
      parts: row.parts as Prisma.InputJsonValue,
      ...(row.metadata && { metadata: row.metadata }),
    },
    select: { id: true },
  });
  return id;
}

function announce(messageId: string, role: "assistant" | "tool", parts: unknown[], keptFrom?: string): EventInput[] {
  return [
    { type: "message.created", data: { messageId, role, ...(keptFrom && { keptFrom }) } },
    {
      type: "message.updated",
      data: { messageId, parts: (parts as Parameters<typeof toPartDto>[0][]).map(toPartDto) },
    },
  ];
}

async function loggedResults(tx: TransactionClient, turnId: string): Promise<ToolResultPart[]> {
  const events = await tx.sessionEvent.findMany({
    where: { turnId, type: "tool.result" },
    orderBy: { id: "asc" },
    select: { data: true },
  });
  return events.flatMap((event) => {
    const parsed = toolResultPartSchema.safeParse((event.data as { result?: unknown } | null)?.result);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Settles the superseded turn `old` and, when `keepInto` is the restarted turn's id, copies its kept rounds. */
export async function settleSupersededTurn(
  tx: TransactionClient,
  old: { id: string; sessionId: string },
  keepInto: string | null,
): Promise<SettledTurn> {
  const rows = await tx.message.findMany({ where: { turnId: old.id }, orderBy: { seq: "asc" } });
  const logged = await loggedResults(tx, old.id);
  const cut = cutBack(rows.map(toCanonicalMessage), logged);
  const last = await tx.message.aggregate({ where: { sessionId: old.sessionId }, _max: { seq: true } });
  const writer: Writer = { tx, sessionId: old.sessionId, nextSeq: (last._max.seq ?? 0) + 1 };
  const loggedIds = new Set(logged.map((result) => result.callId));
  const oldEvents: EventInput[] = [];
  const answeredBy = new Map<string, string>(); // assistant message id -> the tool message holding its results
  for (const round of cut.rounds) {
    if (round.toolMessageId) answeredBy.set(round.assistantId, round.toolMessageId);
    if (round.missing.length === 0) continue;
    const id = await insertMessage(writer, { turnId: old.id, role: "tool", parts: round.missing });
    answeredBy.set(round.assistantId, round.toolMessageId ?? id);
    oldEvents.push(...announce(id, "tool", round.missing));
    for (const result of round.missing.filter(({ callId }) => !loggedIds.has(callId)))
      oldEvents.push({ type: "tool.result", data: { result } });
  }
  if (!keepInto) return { oldEvents, newEvents: [], keptRounds: 0 };
  const kept = cut.rounds.slice(0, cut.kept);
  const newEvents = await copyRounds(writer, keepInto, kept, rows, answeredBy);
  return { oldEvents, newEvents, keptRounds: kept.length };
}

async function copyRounds(
  writer: Writer,
  turnId: string,
  rounds: RoundCut[],
  rows: { id: string; parts: unknown }[],
  answeredBy: Map<string, string>,
): Promise<EventInput[]> {
  const events: EventInput[] = [];
  for (const round of rounds) {
    const parts = (rows.find((row) => row.id === round.assistantId)?.parts ?? []) as unknown[];
    const call = await insertMessage(writer, {
      turnId,
      role: "assistant",
      parts,
      metadata: { keptFrom: round.assistantId },
    });
    const keptFrom = answeredBy.get(round.assistantId)!;
    const results = await insertMessage(writer, { turnId, role: "tool", parts: round.results, metadata: { keptFrom } });
    events.push(
      ...announce(call, "assistant", parts, round.assistantId),
      ...announce(results, "tool", round.results, keptFrom),
    );
  }
  return events;
}
