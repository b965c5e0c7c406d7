// The summary line of a superseded turn (Apply now, Regenerate): "Restarted with revision N", N being
// the tool revision its replacement runs on (the revision of the replacement's first model request).
// Until that request has started the revision is not known yet, and the line says so.
import type { TurnDto } from "@/server/session/history.ts";

export function supersededLabel(turn: Pick<TurnDto, "id">, turns: Pick<TurnDto, "restartOfId" | "requests">[]) {
  const replacement = turns.find((candidate) => candidate.restartOfId === turn.id);
  const revision = replacement?.requests[0]?.toolsRevision;
  return revision === undefined ? "Restarted — this answer was replaced" : `Restarted with revision ${revision}`;
}
