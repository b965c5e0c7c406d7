// Tool approvals in the browser's chat model, keyed by call id: opened by `tool.approval`, decided
// by `tool.approval.decided`, and expired when their turn ends while still pending.
import type { ApprovalStatus, ApprovalView, ChatEvent, ChatState } from "./chat-state-types.ts";

/** `tool.approval` opens a pending approval; `tool.approval.decided` records the user's decision. */
export function applyApproval(state: ChatState, event: ChatEvent): ChatState {
  const callId = String(event.data.callId);
  const approval: ApprovalView = {
    approvalId: String(event.data.approvalId),
    turnId: state.approvals[callId]?.turnId ?? String(event.turnId),
    status: event.type === "tool.approval" ? "pending" : (event.data.status as ApprovalStatus),
  };
  return { ...state, approvals: { ...state.approvals, [callId]: approval } };
}

/** A turn that ended (stopped, restarted, failed) can no longer use what it was waiting for. */
export function expireApprovals(state: ChatState, turnId: string): ChatState {
  const entries = Object.entries(state.approvals);
  if (!entries.some(([, approval]) => approval.turnId === turnId && approval.status === "pending")) return state;
  const approvals = Object.fromEntries(
    entries.map(([callId, approval]) => [
      callId,
      approval.turnId === turnId && approval.status === "pending"
        ? { ...approval, status: "expired" as const }
        : approval,
    ]),
  );
  return { ...state, approvals };
}
