// Persists an assistant message while it streams (see createWriter). Used by turn-runner.ts for each
// model request; it owns the batching of deltas and the order of the writes.
import type { AssistantDraft } from "./assistant-draft.ts";
import type { ToolCallPart } from "../core/canonical.ts";
import { publishMessageDeltas, type EventInput } from "./event-log.ts";
import { toPartDto } from "./history.ts";
import type { TurnDeps, TurnSpec } from "./turn-spec.ts";

const DEFAULT_FLUSH_MS = 16;

/**
 * Persists the draft. The first delta of a request is published at once (time to first token),
 * later ones in batches every flushIntervalMs; a tool call at once, with the deltas before it. Each
 * batch writes the message's parts and the events that brought it there in one statement
 * (publishMessageDeltas), so a history read holds exactly the content of the events up to its
 * lastEventId. The parts are serialised when the batch is taken, so the draft may grow meanwhile.
 * Writes queue behind `ready` (the request's bookkeeping) and each other; the first failure stops
 * the queue and is rethrown by settled(), publishToolCall() and close(). Nothing is written after
 * the turn was aborted.
 */
export function createWriter(
  deps: TurnDeps,
  turn: TurnSpec,
  messageId: string,
  draft: AssistantDraft,
  signal: AbortSignal,
  ready: Promise<void>,
) {
  let timer: NodeJS.Timeout | null = null;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => void (failure ??= { error });
  let chain: Promise<void> = ready.catch(fail);
  let isFirst = true;
  const settled = async () => {
    await chain;
    if (failure) throw failure.error;
  };
  const publish = (extra: EventInput[]) => {
    chain = chain
      .then(async () => {
        if (signal.aborted || failure) return;
        const events: EventInput[] = draft.takePending().map((delta) => ({
          type: delta.kind === "text" ? "text.delta" : "reasoning.delta",
          data: { messageId, partIndex: delta.partIndex, text: delta.text },
        }));
        events.push(...extra);
        if (events.length === 0) return;
        await publishMessageDeltas(deps.db, {
          sessionId: turn.sessionId,
          turnId: turn.id,
          messageId,
          parts: draft.parts, // serialised by the call, before anything else runs: exactly these deltas
          events,
        });
      })
      .catch(fail);
    return settled();
  };
  const flush = () => {
    timer = null;
    return publish([]);
  };
  return {
    settled,
    schedule() {
      if (isFirst) {
        isFirst = false;
        void flush().catch(() => undefined); // surfaced by settled() / close()
        return;
      }
      timer ??= setTimeout(() => void flush().catch(() => undefined), deps.flushIntervalMs ?? DEFAULT_FLUSH_MS);
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
