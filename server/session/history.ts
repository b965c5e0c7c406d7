// What a browser loads when it opens a chat: the messages, the turns (with the audit of each model
// request), the tool approvals (pending ones are the prompts to show again after a reload) and the
// id of the last event included, all read in one repeatable-read snapshot so the browser can follow
// the event stream from exactly that id. Provider-opaque data stays server-side.
import type { Db } from "../db/client.ts";
import { listSessionApprovals, type ApprovalDto } from "../policy/approvals.ts";
import { toPartDto, type PartDto } from "./part-dto.ts";
import { listSessionQuestions, type QuestionDto } from "../policy/followup-questions.ts";
import type { OverlayReport } from "../core/context-overlays.ts";
import { getChatSession, type ChatSessionDto } from "../db/chat-sessions.ts";
import { listSubAgentRuns, type SubAgentRunDto } from "./sub-agent-store.ts";
import { isReplacedMessage, keptFromOf, toCanonicalMessage, type ReplacedMetadata } from "./transcript.ts";

export { toPartDto, type PartDto } from "./part-dto.ts";

export type MessageDto = {
  id: string;
  seq: number;
  role: "user" | "assistant" | "tool";
  turnId: string | null;
  parts: PartDto[];
  /** Set on a user message an edit replaced: the id of the message that replaced it. */
  replacedBy?: string;
  /**
   * Set on the first messages of a turn apply now restarted: the tool rounds it kept from the
   * superseded turn, each naming the message it copies (which stays on the superseded turn).
   */
  keptFrom?: string;
};

export type TurnDto = {
  id: string;
  status: string;
  provider: string;
  model: string;
  userMessageId: string;
  restartOfId: string | null;
  error: { code: string; message: string } | null;
  inputTokens: number | null;
  outputTokens: number | null;
  startedAt: Date;
  endedAt: Date | null;
  requests: TurnRequestDto[];
};

/**
 * One model request of a turn (the turn details audit): the tool revision and the exact tool names
 * the model was shown, then, once it ended, how it ended, its token usage and its duration in ms
 * (from sending it to the end of its stream). The usage fields are absent on an entry built live
 * from `request.started` (they arrive with `request.finished`) and null when the provider reported
 * none or the request never finished (aborted).
 */
export type TurnRequestDto = {
  index: number;
  toolsRevision: number;
  toolNames: string[];
  finishReason: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  durationMs?: number | null;
  /** The context overlay revision it was rendered with, and what the overlays changed (null: nothing). */
  overlayRevision?: number;
  overlays?: OverlayReport | null;
};

export type SessionHistoryDto = {
  session: ChatSessionDto & {
    provider: string | null;
    model: string | null;
    providerAccountId: string | null;
    activeTurnId: string | null;
    toolsRevision: number;
    /** The chat's context overlay revision (always set by getSessionHistory). */
    overlayRevision?: number;
  };
  messages: MessageDto[];
  turns: TurnDto[];
  /** Personas consulted as sub-agents, oldest first; each answers one tool call (sub-agent-store.ts). */
  subAgentRuns: SubAgentRunDto[];
  lastEventId: string | null;
};

/**
 * The chat's tool-policy state, loaded with the history. `approvals`: every tool approval, oldest
 * first; a `pending` one means its turn is paused until the user approves or denies the call.
 * `questions`: every followup question the model asked, oldest first; a `pending` one waits for an answer.
 */
export type HistoryPolicyDto = { personaId: string | null; approvals: ApprovalDto[]; questions: QuestionDto[] };

export async function getSessionHistory(
  db: Db,
  ownerId: string,
  sessionId: string,
): Promise<SessionHistoryDto & HistoryPolicyDto> {
  await getChatSession(db, ownerId, sessionId);
  return db.$transaction(
    async (tx) => {
      const { personaId, ...session } = await tx.chatSession.findFirstOrThrow({
        where: { id: sessionId, ownerId },
        select: {
          id: true,
          title: true,
          createdAt: true,
          updatedAt: true,
          provider: true,
          model: true,
          providerAccountId: true,
          activeTurnId: true,
          toolsRevision: true,
          overlayRevision: true,
          personaId: true,
        },
      });
      const last = await tx.sessionEvent.findFirst({
        where: { sessionId },
        orderBy: { id: "desc" },
        select: { id: true },
      });
      const rows = await tx.message.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
      const turns = await tx.turn.findMany({
        where: { sessionId },
        orderBy: { startedAt: "asc" },
        include: { requests: { orderBy: { index: "asc" } } },
      });
      return {
        session,
        personaId,
        approvals: await listSessionApprovals(tx, sessionId),
        subAgentRuns: await listSubAgentRuns(tx, sessionId),
        questions: await listSessionQuestions(tx, sessionId),
        lastEventId: last ? last.id.toString() : null,
        messages: rows.map((row) => ({
          id: row.id,
          seq: row.seq,
          role: row.role,
          turnId: row.turnId,
          parts: toCanonicalMessage(row).parts.map(toPartDto),
          ...(isReplacedMessage(row) ? { replacedBy: (row.metadata as ReplacedMetadata).replacedBy } : {}),
          ...(keptFromOf(row) ? { keptFrom: keptFromOf(row)! } : {}),
        })),
        turns: turns.map((turn) => ({
          id: turn.id,
          status: turn.status,
          provider: turn.provider,
          model: turn.model,
          userMessageId: turn.userMessageId,
          restartOfId: turn.restartOfId,
          error: (turn.error as TurnDto["error"]) ?? null,
          inputTokens: turn.inputTokens,
          outputTokens: turn.outputTokens,
          startedAt: turn.startedAt,
          endedAt: turn.endedAt,
          requests: turn.requests.map((request) => ({
            index: request.index,
            toolsRevision: request.toolsRevision,
            toolNames: request.toolNames as string[],
            finishReason: request.finishReason,
            inputTokens: request.inputTokens,
            outputTokens: request.outputTokens,
            durationMs: request.durationMs,
            overlayRevision: request.overlayRevision,
            overlays: (request.overlays as OverlayReport | null) ?? null,
          })),
        })),
      };
    },
    { isolationLevel: "RepeatableRead" },
  );
}
