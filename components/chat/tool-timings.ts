// The rows of a turn's "Tool calls" table (turn-details.tsx): each call of the turn's messages with
// its status in words and its duration, from the chat's records of results and approvals.
import type { MessageDto, TurnDto } from "@/server/session/history.ts";

import type { ApprovalView, ToolResultView } from "./chat-state.ts";
import { describeToolStatus, toolStatusLabels } from "./tool-status.ts";
import type { ToolTiming } from "./turn-details.tsx";

export function listToolTimings(
  turn: TurnDto,
  messages: MessageDto[],
  toolResults: Record<string, ToolResultView>,
  approvals: Record<string, ApprovalView>,
): ToolTiming[] {
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (part.type !== "tool-call") return [];
      const result = toolResults[part.id];
      const status = describeToolStatus({ result, approval: approvals[part.id]?.status, turnStatus: turn.status });
      return [{ id: part.id, name: part.name, durationMs: result?.durationMs, status: toolStatusLabels[status] }];
    }),
  );
}
