// The shapes of the browser's model of one chat (chat-state.ts reduces events into them) and of the
// live events it applies. Types only, shared by the reducer and its helpers.
import type { ApprovalDto } from "@/server/policy/approvals.ts";
import type { QuestionDto } from "@/server/policy/followup-questions.ts";
import type { MessageDto, TurnDto } from "@/server/session/history.ts";
import type { SubAgentRunDto } from "@/server/session/sub-agent-store.ts";

export type ChatEvent = {
  id: string;
  turnId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt?: Date;
};

export type ToolResultView = { output: unknown; isError: boolean; durationMs?: number };
export type ToolProgressView = { progress: number; total?: number; message?: string };

export type ApprovalStatus = ApprovalDto["status"];
/** One tool call's approval; `pending` until the user decides or the turn ends (then `expired`). */
export type ApprovalView = { approvalId: string; turnId: string; status: ApprovalStatus };

export type QuestionStatus = QuestionDto["status"];
/** A followup question the model asked (builtin.ask_followup_question); `pending` until answered or expired. */
export type QuestionView = {
  questionId: string;
  turnId: string;
  question: string;
  options: string[];
  status: QuestionStatus;
  answer: string | null;
};

export type ChatState = {
  title: string;
  toolsRevision: number;
  /** The chat's context overlay revision (server/session/overlays.ts); the overlays load on change. */
  overlayRevision: number;
  personaId: string | null;
  messages: MessageDto[];
  turns: TurnDto[];
  toolResults: Record<string, ToolResultView>;
  /** Latest progress of long tools, by call id. */
  toolProgress: Record<string, ToolProgressView>;
  /** By call id. */
  approvals: Record<string, ApprovalView>;
  /** Personas consulted as sub-agents, by the parent tool call's id; each event carries the whole run. */
  subAgents: Record<string, SubAgentRunDto>;
  /** Followup questions, by call id. */
  questions: Record<string, QuestionView>;
  /** By turn id: what the user is told when a tool-call limit stopped calls (each message once). */
  limitNotes: Record<string, string[]>;
  lastEventId: string | null;
};
