// Questions the model asks the user (builtin.ask_followup_question). A turn asking one records a
// pending row and waits on it, exactly like an approval (approvals.ts): the answer, written by
// whichever app instance received it, flips the row exactly once (pending -> answered) and notifies
// on the approval channel; the waiter wakes on the notification or, at the latest, on its next poll.
// A turn that ends before the user answers expires its pending questions, which can then never be
// answered. Every query a user can reach is scoped to the chat's owner: another user's question looks
// like one that does not exist.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { FollowupQuestionStatus } from "../generated/prisma/enums.ts";
import type { TransactionClient } from "../generated/prisma/internal/prismaNamespace.ts";
import { CHANNELS, notify, waitForNotification } from "../db/notifier.ts";

export type QuestionDto = {
  id: string;
  turnId: string;
  callId: string;
  question: string;
  options: string[];
  answer: string | null;
  status: FollowupQuestionStatus;
  createdAt: Date;
  answeredAt: Date | null;
};

const POLL_INTERVAL_MS = 1_000;
/** Longest answer stored (the model reads it as the tool result). */
export const MAX_ANSWER_CHARS = 4_000;

const questionSelect = {
  id: true,
  turnId: true,
  callId: true,
  question: true,
  options: true,
  answer: true,
  status: true,
  createdAt: true,
  answeredAt: true,
  turn: { select: { status: true } },
} as const;

type QuestionRow = QuestionDto & { turn: { status: string } };

/** A pending question of a turn that is no longer streaming can never be answered: it reads as expired. */
function toQuestionDto({ turn, ...row }: QuestionRow): QuestionDto {
  const isStale = row.status === "pending" && turn.status !== "streaming";
  return { ...row, status: isStale ? "expired" : row.status };
}

/** Records a pending question for one tool call of a turn; returns its id. */
export async function askQuestion(
  db: Db,
  call: { sessionId: string; turnId: string; callId: string; question: string; options: string[] },
): Promise<string> {
  const row = await db.followupQuestion.create({ data: call, select: { id: true } });
  return row.id;
}

/** Waits until the question is answered (or expired); throws the abort reason when `signal` fires. */
export async function waitForAnswer(
  db: Db,
  questionId: string,
  signal: AbortSignal,
  pollMs = POLL_INTERVAL_MS,
): Promise<{ status: "answered"; answer: string } | { status: "expired" }> {
  for (;;) {
    signal.throwIfAborted();
    const wake = waitForNotification(CHANNELS.toolApproval, questionId, pollMs, signal);
    const row = await db.followupQuestion.findUnique({
      where: { id: questionId },
      select: { status: true, answer: true },
    });
    if (!row || row.status === "expired") return { status: "expired" };
    if (row.status === "answered") return { status: "answered", answer: row.answer ?? "" };
    await wake;
  }
}

/**
 * The chat owner's answer to a pending question of a streaming turn. A question is answered once:
 * answering it again, or after its turn ended, is a conflict that says which.
 */
export async function answerQuestion(
  db: Db,
  ownerId: string,
  questionId: string,
  answer: string,
): Promise<QuestionDto> {
  const { count } = await db.followupQuestion.updateMany({
    where: { id: questionId, status: "pending", session: { ownerId }, turn: { status: "streaming" } },
    data: { status: "answered", answer, answeredAt: new Date() },
  });
  const row = await db.followupQuestion.findFirst({
    where: { id: questionId, session: { ownerId } },
    select: questionSelect,
  });
  if (!row) throw new AppError("not_found:question");
  const dto = toQuestionDto(row);
  if (count === 1) {
    await notify(db, CHANNELS.toolApproval, row.id);
    return dto;
  }
  const message =
    dto.status === "expired"
      ? "This answer has ended, so the question can no longer be answered."
      : "This question was already answered.";
  throw new AppError("conflict:question", message);
}

/** Every question of a chat, oldest first (history shows pending ones as prompts, the rest as notes). */
export async function listSessionQuestions(db: Db | TransactionClient, sessionId: string): Promise<QuestionDto[]> {
  const rows = await db.followupQuestion.findMany({
    where: { sessionId },
    orderBy: { createdAt: "asc" },
    select: questionSelect,
  });
  return rows.map(toQuestionDto);
}

/** Part of ending a turn: its unanswered questions can no longer be answered. */
export async function expirePendingQuestions(db: Db | TransactionClient, turnId: string): Promise<void> {
  await db.followupQuestion.updateMany({
    where: { turnId, status: "pending" },
    data: { status: "expired" },
  });
}
