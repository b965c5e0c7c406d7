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
// Returns the events that announce these rows, for the caller to append after the commit. Raw SQL
// on the transaction's client: one statement reads, one writes (none when nothing is to be written).
import { randomUUID } from "node:crypto";

import type pg from "pg";

import { toolResultPartSchema, type ToolResultPart } from "../core/canonical.ts";
import { cutBack, type RoundCut } from "./cut-back.ts";
import type { EventInput } from "./event-log.ts";
import { toPartDto } from "./history.ts";
import { historyRowJsonSql, toCanonicalMessage, type HistoryRow, type KeptMetadata } from "./transcript.ts";
import { NOW } from "./turn-sql.ts";

export type SettledTurn = {
  /** Events of the superseded turn (its new tool messages and cancelled results). */
  oldEvents: EventInput[];
  /** Events of the restarted turn (the kept copies), to follow its `turn.started`. */
  newEvents: EventInput[];
  /** How many complete rounds were copied into the restarted turn. */
  keptRounds: number;
};

type NewRow = { turnId: string; role: "assistant" | "tool"; parts: unknown[]; metadata?: KeptMetadata };

/**
 * What the settle reads, in ONE statement: the old turn's messages in sequence order, the results
 * logged for its calls (`tool.result` events, in order), and the session's last message seq.
 */
const SETTLE_READS = `SELECT
    (SELECT COALESCE(json_agg(${historyRowJsonSql("m")} ORDER BY m."seq"), '[]')
      FROM "Message" m WHERE m."turnId" = $1::text) AS "messages",
    (SELECT COALESCE(json_agg(e."data" -> 'result' ORDER BY e."id"), '[]') FROM "SessionEvent" e
      WHERE e."turnId" = $1::text AND e."type" = 'tool.result') AS "logged",
    (SELECT max("seq") FROM "Message" WHERE "sessionId" = $2::text) AS "lastSeq"`;

/** Inserts the settle's new messages (a jsonb array of rows, in seq order) in one statement. */
const INSERT_MESSAGES = `INSERT INTO "Message" ("id", "sessionId", "turnId", "seq", "role", "parts", "metadata", "createdAt", "updatedAt")
  SELECT r."id", $1::text, r."turnId", r."seq", r."role"::"MessageRole", r."parts", r."metadata", ${NOW}, ${NOW}
  FROM jsonb_to_recordset($2::jsonb) AS r("id" text, "turnId" text, "seq" int, "role" text, "parts" jsonb, "metadata" jsonb)`;

/** The settle's new messages: each gets its id and the next seq now, and is written by `flush`. */
class MessageBatch {
  private readonly rows: (NewRow & { id: string; seq: number })[] = [];

  constructor(private nextSeq: number) {}

  add(row: NewRow): string {
    const id = randomUUID();
    this.rows.push({ ...row, id, seq: this.nextSeq++ });
    return id;
  }

  async flush(client: pg.ClientBase, sessionId: string): Promise<void> {
    if (this.rows.length === 0) return;
    await client.query(INSERT_MESSAGES, [sessionId, JSON.stringify(this.rows)]);
  }
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

function parseLogged(values: unknown[]): ToolResultPart[] {
  return values.flatMap((value) => {
    const parsed = toolResultPartSchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Settles the superseded turn `old` and, when `keepInto` is the restarted turn's id, copies its kept
 * rounds: one read, then (when there is anything to write) one insert, on `client`, inside the
 * caller's transaction.
 */
export async function settleSupersededTurn(
  client: pg.ClientBase,
  old: { id: string; sessionId: string },
  keepInto: string | null,
): Promise<SettledTurn> {
  const { rows: read } = await client.query<{ messages: HistoryRow[]; logged: unknown[]; lastSeq: number | null }>(
    SETTLE_READS,
    [old.id, old.sessionId],
  );
  const { messages: rows, logged: loggedValues, lastSeq } = read[0]!;
  const logged = parseLogged(loggedValues);
  const cut = cutBack(rows.map(toCanonicalMessage), logged);
  const batch = new MessageBatch((lastSeq ?? 0) + 1);
  const loggedIds = new Set(logged.map((result) => result.callId));
  const oldEvents: EventInput[] = [];
  const answeredBy = new Map<string, string>(); // assistant message id -> the tool message holding its results
  for (const round of cut.rounds) {
    if (round.toolMessageId) answeredBy.set(round.assistantId, round.toolMessageId);
    if (round.missing.length === 0) continue;
    const id = batch.add({ turnId: old.id, role: "tool", parts: round.missing });
    answeredBy.set(round.assistantId, round.toolMessageId ?? id);
    oldEvents.push(...announce(id, "tool", round.missing));
    for (const result of round.missing.filter(({ callId }) => !loggedIds.has(callId)))
      oldEvents.push({ type: "tool.result", data: { result } });
  }
  const kept = keepInto ? cut.rounds.slice(0, cut.kept) : [];
  const newEvents = keepInto ? copyRounds(batch, keepInto, kept, rows, answeredBy) : [];
  await batch.flush(client, old.sessionId);
  return { oldEvents, newEvents, keptRounds: kept.length };
}

function copyRounds(
  batch: MessageBatch,
  turnId: string,
  rounds: RoundCut[],
  rows: { id: string; parts: unknown }[],
  answeredBy: Map<string, string>,
): EventInput[] {
  const events: EventInput[] = [];
  for (const round of rounds) {
    const parts = (rows.find((row) => row.id === round.assistantId)?.parts ?? []) as unknown[];
    const call = batch.add({ turnId, role: "assistant", parts, metadata: { keptFrom: round.assistantId } });
    const keptFrom = answeredBy.get(round.assistantId)!;
    const results = batch.add({ turnId, role: "tool", parts: round.results, metadata: { keptFrom } });
    events.push(
      ...announce(call, "assistant", parts, round.assistantId),
      ...announce(results, "tool", round.results, keptFrom),
    );
  }
  return events;
}
