// Approvals of `ask` tool calls. A turn about to run such a call records a pending row and waits on
// it; the user's decision, written by whichever app instance received it, flips the row exactly once
// (pending -> approved | denied) and notifies. The waiter wakes on the notification or, at the
// latest, on its next poll, so a lost notification costs a second, never the decision. A turn that
// ends before anyone decides expires its pending rows. Every query here that a user can reach is
// scoped to the owner of the chat: another user's approval looks like one that does not exist.
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ToolApprovalStatus } from "../generated/prisma/enums.ts";
import type { TransactionClient } from "../generated/prisma/internal/prismaNamespace.ts";
import type { JsonValue } from "../core/canonical.ts";
import { CHANNELS, notify, waitForNotification } from "../db/notifier.ts";

export type ApprovalDecision = "approve" | "deny";
export type ApprovalTarget = { approvalId: string } | { turnId: string; callId: string };
export type ApprovalDto = {
  id: string;
  turnId: string;
  callId: string;
  /** Canonical tool name, `server.tool`. */
  toolName: string;
  args: Record<string, JsonValue>;
  status: ToolApprovalStatus;
  createdAt: Date;
  decidedAt: Date | null;
};

const POLL_INTERVAL_MS = 1_000;

const approvalSelect = {
  id: true,
  turnId: true,
  callId: true,
  toolName: true,
  args: true,
  status: true,
  createdAt: true,
  decidedAt: true,
  turn: { select: { status: true } },
} as const;

type ApprovalRow = {
  id: string;
  turnId: string;
  callId: string;
  toolName: string;
  args: unknown;
  status: ToolApprovalStatus;
  createdAt: Date;
  decidedAt: Date | null;
  turn: { status: string };
};

/** A pending row of a turn that is no longer streaming can never be decided: it reads as expired. */
function toApprovalDto({ turn, ...row }: ApprovalRow): ApprovalDto {
  const isStale = row.status === "pending" && turn.status !== "streaming";
  return { ...row, args: row.args as Record<string, JsonValue>, status: isStale ? "expired" : row.status };
}

/** Records a pending approval for one tool call of a turn; returns its id. */
export async function requestApproval(
  db: Db,
  call: { sessionId: string; turnId: string; callId: string; toolName: string; args: Record<string, JsonValue> },
): Promise<string> {
  const row = await db.toolApproval.create({
    data: call,
    select: { id: true },
  });
  return row.id;
}

/** Waits until the approval is decided (or expired); throws the abort reason when `signal` fires. */
export async function waitForDecision(
  db: Db,
  approvalId: string,
  signal: AbortSignal,
  pollMs = POLL_INTERVAL_MS,
): Promise<Exclude<ToolApprovalStatus, "pending">> {
  for (;;) {
    signal.throwIfAborted();
    const wake = waitForNotification(CHANNELS.toolApproval, approvalId, pollMs, signal);
    const row = await db.toolApproval.findUnique({ where: { id: approvalId }, select: { status: true } });
    if (!row) return "expired";
    if (row.status !== "pending") return row.status;
    await wake;
  }
}

/**
 * The chat owner's decision on a pending approval of a streaming turn. Deciding twice the same way
 * is harmless; deciding an approval that was decided otherwise, or whose turn ended, is a conflict.
 */
export async function decideApproval(
  db: Db,
  ownerId: string,
  target: ApprovalTarget,
  decision: ApprovalDecision,
): Promise<ApprovalDto> {
  const where = "approvalId" in target ? { id: target.approvalId } : { turnId: target.turnId, callId: target.callId };
  const status = decision === "approve" ? "approved" : "denied";
  const { count } = await db.toolApproval.updateMany({
    where: { ...where, status: "pending", session: { ownerId }, turn: { status: "streaming" } },
    data: { status, decidedAt: new Date(), decidedBy: ownerId },
  });
  const row = await db.toolApproval.findFirst({ where: { ...where, session: { ownerId } }, select: approvalSelect });
  if (!row) throw new AppError("not_found:approval");
  const dto = toApprovalDto(row);
  if (count === 1) await notify(db, CHANNELS.toolApproval, row.id);
  else if (dto.status !== status) {
    const message =
      dto.status === "expired"
        ? "This answer has ended, so the tool call can no longer be approved or denied."
        : `This tool call was already ${dto.status}.`;
    throw new AppError("conflict:approval", message);
  }
  return dto;
}

/** Every approval of a chat, oldest first (history shows pending ones as prompts, the rest as notes). */
export async function listSessionApprovals(db: Db | TransactionClient, sessionId: string): Promise<ApprovalDto[]> {
  const rows = await db.toolApproval.findMany({
    where: { sessionId },
    orderBy: { createdAt: "asc" },
    select: approvalSelect,
  });
  return rows.map(toApprovalDto);
}

/** Part of ending a turn: its undecided approvals can no longer be decided. */
export async function expirePendingApprovals(db: Db | TransactionClient, turnId: string): Promise<void> {
  await db.toolApproval.updateMany({
    where: { turnId, status: "pending" },
    data: { status: "expired", decidedAt: new Date() },
  });
}
