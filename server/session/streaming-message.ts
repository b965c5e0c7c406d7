// Persists an assistant message while it streams (see createWriter). Used by turn-runner.ts for each
// model request; it owns the batching of deltas, their numbering and the order of the writes.
import type { AssistantDraft } from "./assistant-draft.ts";
import type { ToolCallPart } from "../core/canonical.ts";
import { streamPoolOf } from "../db/client.ts";
import { queueDeltas, type DeltaEvent } from "./delta-queue.ts";
import type { EventIdReservation } from "./event-ids.ts";
import { publishHere, type EventInput } from "./event-log.ts";
import type { SessionEventDto } from "./event-types.ts";
import { toPartDto } from "./history.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";

const DEFAULT_FLUSH_MS = 16;

/**
 * Publishes and persists the draft. A delta goes out at once when the last batch left at least
 * flushIntervalMs ago (so the first one, and every one of a stream slower than that, is not held
 * back), else with the batch that leaves flushIntervalMs after the last; a tool call at once, with
 * the deltas before it. Each batch is numbered from the turn's reservation `ids` (event-ids.ts),
 * published to this process's subscribers at once (event-log.ts, publishHere) and queued to be stored behind: the
 * message's parts and the events that brought it there in one statement (delta-queue.ts), so a
 * history read holds exactly the content of the events up to its lastEventId. The parts are
 * serialised when the batch is taken, so the draft may grow meanwhile. Publishing starts once
 * `published` resolves (the request's own first events are out: at once when the runner numbered
 * them itself); storing waits for `stored` (the request's bookkeeping committed: the message row
 * exists). Batches go out in order; the first failure (a batch that could not be stored, or the
 * bookkeeping) stops the writer and is rethrown by settled(), publishToolCall() and close().
 * Nothing is published after the turn was aborted; what was published is stored.
 */
export function createWriter(
  deps: TurnDeps,
  turn: TurnSpec,
  messageId: string,
  draft: AssistantDraft,
  signal: AbortSignal,
  order: { ids: EventIdReservation; published: Promise<unknown>; stored: Promise<unknown> },
) {
  const pool = streamPoolOf(deps.db);
  const { ids } = order;
  let timer: NodeJS.Timeout | null = null;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => void (failure ??= { error });
  let chain: Promise<void> = order.published.then(() => undefined).catch(fail);
  const storable = order.stored.then(() => true).catch((error: unknown) => (fail(error), false));
  const stored = new Set<Promise<void>>();
  const settled = async () => {
    await chain;
    await Promise.all(stored);
    if (failure) throw failure.error;
  };
  const sendBatch = async (extra: EventInput[]) => {
    if (signal.aborted || failure) return;
    const inputs: EventInput[] = draft.takePending().map((delta) => ({
      type: delta.kind === "text" ? "text.delta" : "reasoning.delta",
      data: { messageId, partIndex: delta.partIndex, text: delta.text },
    }));
    inputs.push(...extra);
    if (inputs.length === 0) return;
    const parts = JSON.stringify(draft.parts); // exactly these deltas: serialised before any wait
    const events = await numbered(ids, turn, inputs);
    publishHere(turn.sessionId, events);
    const batch = { sessionId: turn.sessionId, turnId: turn.id, messageId, parts, events };
    const write = storable
      .then((isStorable) => (isStorable ? queueDeltas(pool, batch) : undefined))
      .catch(fail)
      .finally(() => stored.delete(write));
    stored.add(write);
  };
  const publish = (extra: EventInput[]) => {
    chain = chain.then(() => sendBatch(extra)).catch(fail);
    return settled();
  };
  const interval = deps.flushIntervalMs ?? DEFAULT_FLUSH_MS;
  let lastFlushAt = -Infinity;
  const flush = () => {
    timer = null;
    lastFlushAt = performance.now();
    return publish([]);
  };
  return {
    settled,
    schedule() {
      if (timer) return;
      const wait = lastFlushAt + interval - performance.now();
      if (wait <= 0)
        void flush().catch(() => undefined); // surfaced by settled() / close()
      else timer = setTimeout(() => void flush().catch(() => undefined), wait);
    },
    async publishToolCall(call: ToolCallPart) {
      if (timer) clearTimeout(timer);
      timer = null;
      const partIndex = draft.parts.indexOf(call);
      await publish([{ type: "tool.call", data: { messageId, partIndex, call: toPartDto(call) } }]);
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
  };
}

/** The inputs as events numbered from the reservation (waiting for a refill only when it ran out). */
async function numbered(
  ids: EventIdReservation,
  turn: TurnSpec,
  inputs: EventInput[],
): Promise<(DeltaEvent & SessionEventDto)[]> {
  let taken = ids.take(inputs.length);
  while (!taken) {
    await ids.ensure(inputs.length); // only when the reservation ran out: one round trip
    taken = ids.take(inputs.length);
  }
  const [eventIds, createdAt] = [taken, new Date()];
  return inputs.map((input, at) => ({
    ...input,
    id: eventIds[at]!,
    sessionId: turn.sessionId,
    turnId: turn.id,
    createdAt,
  }));
}
